/* Debug trace of the stand-ins: with HCCL_STUB_LOG=1, one line per API call on stderr
 * ("hccl-stub[pid]: call = result"). Never stdout: hcclctl's --json owns it. */
#ifndef STUB_LOG_H
#define STUB_LOG_H

int stub_log_on(void);
void stub_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
