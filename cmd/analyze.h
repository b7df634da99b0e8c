/* hcclctl analyze: merges the flight-recorder dumps of a job's ranks (probes/flight/flight.h). */
#ifndef HCCLCTL_ANALYZE_H
#define HCCLCTL_ANALYZE_H

#include "cmd/cli/cli.h"

extern const struct opt analyze_opts[];
int cmd_analyze(int argc, char **argv);

#endif
