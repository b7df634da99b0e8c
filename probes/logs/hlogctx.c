/* What a command line or a table's heading says of the lines of output below it: the device
 * a device tool's command or heading names ("hccn_tool -i 0 -link -g" over "link status:
 * DOWN", nvidia-smi's "GPU 2: NVIDIA B200 (UUID: ...)" over its links), and the
 * link layer of each RDMA port of a port table (ibstat, ibv_devinfo), which tells a port of
 * the node's fabric from one of a network it does not use. Apart from the scan loop so that
 * it keeps one job. */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "probes/logs/hccllog.h"
#include "probes/logs/hlogint.h"
#include "probes/logs/logtext.h"

/* Device tools and the option that names the device they query: the same "-i N" for the NPU
 * NIC tool, the NPU tool and NVIDIA's. */
static const struct {
	const char *tool, *opt;
} dev_tools[] = {
	{"hccn_tool", " -i "},
	{"npu-smi", " -i "},
	{"nvidia-smi", " -i "},
};

static int prompt_end(char c)
{
	return c == '#' || c == '$' || c == '>';
}

/* nvidia-smi's heading over one GPU's lines (-L, nvlink -s): "GPU 2: NVIDIA B200 (UUID:
 * GPU-...)"; its number into *dev */
static int gpu_heading(struct pspan line, int *dev)
{
	if (line.n < 8 || strncmp(line.s, "GPU ", 4) || !hlog__has(line, "(UUID:"))
		return 0;
	size_t i = 4;
	int v = 0;
	while (i < line.n && line.s[i] >= '0' && line.s[i] <= '9' && v < 4096)
		v = v * 10 + (line.s[i++] - '0');
	if (i == 4 || i >= line.n || line.s[i] != ':' || v >= 4096)
		return 0;
	*dev = v;
	return 1;
}

void hlog__tool_command(struct pspan line, unsigned no, struct hlog_cmd_ctx *c)
{
	int dev;
	if (gpu_heading(line, &dev)) {
		*c = (struct hlog_cmd_ctx){no, dev};
		return;
	}
	for (size_t t = 0; t < sizeof(dev_tools) / sizeof(dev_tools[0]); t++) {
		const char *p = hlog__find(line, dev_tools[t].tool);
		if (!p)
			continue;
		/* typed at a prompt or alone, its path before it; not a message that advises it */
		size_t b = (size_t)(p - line.s);
		while (b && line.s[b - 1] != ' ' && line.s[b - 1] != '\t' && !prompt_end(line.s[b - 1]))
			b--;
		while (b && (line.s[b - 1] == ' ' || line.s[b - 1] == '\t'))
			b--;
		if (b && !prompt_end(line.s[b - 1]))
			continue;
		struct pspan rest = {p, line.n - (size_t)(p - line.s)};
		long long v = -1;
		struct pspan o = hlog__after(rest, dev_tools[t].opt);
		c->no = no;
		c->dev = o.s && hlog__num_at(o, &v) && v >= 0 && v < 4096 ? (int)v : -1;
		return;
	}
}

void hlog__port_line(struct pspan m, unsigned no, struct hlog_port_ctx *p, struct hlog_file *f,
		     struct hlog_event *ev, size_t nev)
{
	struct pspan v = hlog__after_nocase(m, "link layer:");
	if (!v.s)
		v = hlog__after_nocase(m, "link_layer:");
	if (!v.s) {
		if (hlog__has_nocase(m, "state: active") || hlog__has(m, "PORT_ACTIVE"))
			*p = (struct hlog_port_ctx){no, 1, (size_t)-1};
		return;
	}
	if (!p->no || no - p->no > 16)
		return;
	v = probe__trim(v);
	unsigned layer = v.n >= 10 && !strncasecmp(v.s, "InfiniBand", 10) ? HLOG_LAYER_IB
			 : v.n >= 8 && !strncasecmp(v.s, "Ethernet", 8) ? HLOG_LAYER_ETH
									 : 0;
	if (p->active)
		f->active_layers |= layer;
	else if (p->ev < nev)
		ev[p->ev].layer = layer;
	p->no = 0;
}

size_t hlog__drop_unused_ports(struct hlog_event *ev, size_t ev0, size_t nev, unsigned used)
{
	size_t k = ev0;
	for (size_t i = ev0; i < nev; i++) {
		if (used && ev[i].kind == HLOG_LINK_DOWN && ev[i].layer && !(ev[i].layer & used))
			continue;
		if (k != i)
			ev[k] = ev[i];
		k++;
	}
	return k;
}
