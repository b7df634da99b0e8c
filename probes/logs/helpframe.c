/* The frames of help messages: Open MPI prints a failure's explanation between two rules of
 * dashes, and says there when the job goes on without what failed. */
#include <string.h>

#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"
#include "probes/tool/ptext.h"

/* A line of 20 or more dashes and nothing else: the frame of a help message. */
int hlog__rule_line(struct pspan m)
{
	return m.n >= 20 && m.s[0] == '-' && probe__count_in(m, "-") == m.n;
}

/* Words with which a help message says the program goes on without what failed: Open MPI's
 * "Another transport will be used instead, although this may result in lower performance.",
 * "Default device parameters will be used, which may result in lower performance.", "The
 * openib BTL will be ignored for this job." */
static const char *const fallbacks[] = {"will be used", "will be ignored"};

/* Whether the help message a rule of dashes just opened (its lines ahead, to the closing
 * rule) states such a fallback: its failure is then a notice. Its lines are read as one text,
 * for the words wrap ("The openib BTL will be" / "ignored for this job."). A frame not closed
 * within FRAME_LINES lines or FRAME_BYTES is no help message. */
#define FRAME_LINES 64
#define FRAME_BYTES 4096
int hlog__frame_falls_back(struct pspan ahead)
{
	char text[FRAME_BYTES];
	size_t n = 0;
	struct pspan l;
	for (int k = 0; k < FRAME_LINES && probe__next_line(&ahead, &l); k++) {
		struct pspan t = probe__trim(l);
		if (hlog__rule_line(t)) {
			for (size_t i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++)
				if (hlog__has((struct pspan){text, n}, fallbacks[i]))
					return 1;
			return 0;
		}
		if (n + t.n + 1 > sizeof(text))
			return 0;
		memcpy(text + n, t.s, t.n);
		n += t.n;
		text[n++] = ' ';
	}
	return 0;
}
