/* Gloo's side of the collective benches (bench/coll.sh, bench/local.sh): Debian's libgloo
 * (a 2022 snapshot, the one PyTorch 1.12's gloo backend was built against), fp32 sum over its
 * TCP transport, measured exactly as bench/mpi_coll measures Open MPI, so that
 * bench/collreport.py reads both alike: the size is the collective's largest buffer, one clean
 * call per size is checked (integers in fp32 are exact), then WARMUP calls, a barrier, and the
 * mean over ITERS calls of the slowest rank; busbw uses the nccl-tests factors. Sizes whose
 * buffers round to those of the previous size, or to nothing, are skipped.
 *
 *   gloo_coll RANK NRANKS ADDR STOREDIR COLL ALGO SIZE[,SIZE...] WARMUP ITERS
 *
 * ADDR is the address the rank's TCP device binds (its namespace's address, 127.0.0.1 on one
 * host); STOREDIR an existing directory, empty, shared by the ranks of one launch, for the
 * FileStore rendezvous. COLL ALGO is one of the rows of `algos` below:
 *   allreduce default        gloo::allreduce with AllreduceOptions and no algorithm set (a
 *                            pipelined ring of 1 MiB segments): what PyTorch's backend calls,
 *                            new options for every call as PyTorch builds them
 *   allreduce ring_chunked   AllreduceRingChunked, built once per size, run() per call
 *   allgather default        gloo::allgather with AllgatherOptions
 *   reducescatter halving_doubling
 *                            ReduceScatterHalvingDoubling (this snapshot has no options API
 *                            for reduce-scatter), built once per size
 * The last two algorithms work in place: after the checked call the buffer keeps summing into
 * itself, which only grows the values (to inf for many calls at N=8; on x86 that costs nothing,
 * unlike denormals), and the next size refills it.
 *
 * The benches pin ranks (BENCH_PIN=1) with taskset, as they pin ours. Rank 0 prints one
 * JSON object per size on stdout. Exit 0; 2 when a result is wrong; 3 when
 * Gloo fails (its message on stderr); 64 for bad arguments. */
#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/allreduce_ring_chunked.h>
#include <gloo/barrier.h>
#include <gloo/math.h>
#include <gloo/reduce_scatter.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace {

enum class Coll { allreduce, allreduce_ring_chunked, allgather, reducescatter };

struct Algo {
	const char *coll, *algo;
	Coll kind;
};

const Algo algos[] = {
	{"allreduce", "default", Coll::allreduce},
	{"allreduce", "ring_chunked", Coll::allreduce_ring_chunked},
	{"allgather", "default", Coll::allgather},
	{"reducescatter", "halving_doubling", Coll::reducescatter},
};

// Gloo's own deadline for one call: well past what 256 MiB takes on a 1 Gbit/s link at N=8,
// short of the bench's kill timeout so that a stuck rank says so itself.
constexpr std::chrono::seconds call_timeout(600);

struct Args {
	int rank = 0, n = 0;
	const char *addr = nullptr, *store = nullptr, *sizes = nullptr;
	const Algo *algo = nullptr;
	long warmup = 0, iters = 0;
};

bool parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

// Sizes as mpi_coll reads them, but strictly: a bad one is named with its position.
bool parse_sizes(const char *csv, std::vector<size_t> *out, std::string *err)
{
	const char *s = csv;
	for (int k = 1;; k++) {
		char *end;
		errno = 0;
		unsigned long long b = strtoull(s, &end, 10);
		if (errno || end == s || *s == '-' || (*end && *end != ',') || b > (1ULL << 31)) {
			*err = "size " + std::to_string(k) + " of '" + csv +
			       "' is not a byte count up to 2G";
			return false;
		}
		out->push_back(static_cast<size_t>(b));
		if (!*end)
			return true;
		s = end + 1;
	}
}

bool parse_args(int argc, char **argv, Args *a, std::vector<size_t> *sizes, std::string *err)
{
	if (argc != 10) {
		*err = "expected 9 arguments, got " + std::to_string(argc - 1);
		return false;
	}
	long v;
	if (!parse_long(argv[2], 1, 4096, &v)) {
		*err = std::string("NRANKS '") + argv[2] + "' is not 1..4096";
		return false;
	}
	a->n = static_cast<int>(v);
	if (!parse_long(argv[1], 0, a->n - 1, &v)) {
		*err = std::string("RANK '") + argv[1] + "' is not 0.." + std::to_string(a->n - 1);
		return false;
	}
	a->rank = static_cast<int>(v);
	a->addr = argv[3];
	a->store = argv[4];
	for (const Algo &g : algos)
		if (!strcmp(g.coll, argv[5]) && !strcmp(g.algo, argv[6]))
			a->algo = &g;
	if (!a->algo) {
		*err = std::string("no algorithm '") + argv[6] + "' for collective '" + argv[5] +
		       "' (allreduce default|ring_chunked, allgather default, reducescatter "
		       "halving_doubling)";
		return false;
	}
	if (!parse_sizes(argv[7], sizes, err))
		return false;
	if (!parse_long(argv[8], 0, 1000000, &a->warmup)) {
		*err = std::string("WARMUP '") + argv[8] + "' is not 0..1000000";
		return false;
	}
	if (!parse_long(argv[9], 1, 1000000, &a->iters)) {
		*err = std::string("ITERS '") + argv[9] + "' is not 1..1000000";
		return false;
	}
	return true;
}

// Elements this rank sends (allreduce, allgather) or receives (reducescatter), as mpi_coll.
size_t per_rank(Coll c, size_t bytes, int n)
{
	return c == Coll::allgather || c == Coll::reducescatter
		       ? bytes / sizeof(float) / static_cast<size_t>(n)
		       : bytes / sizeof(float);
}

// The pattern and the expected sums are mpi_coll's, so the two check the same thing.
float pattern(int rank, size_t i)
{
	return static_cast<float>((rank + 1) * static_cast<int>(i % 7 + 1));
}

class Bench {
      public:
	Bench(const std::shared_ptr<gloo::Context> &ctx, Coll c, size_t pc)
	    : ctx_(ctx), c_(c), pc_(pc), n_(static_cast<size_t>(ctx->size)),
	      in_(c == Coll::reducescatter ? pc * n_ : pc),
	      out_(c == Coll::allgather ? pc * n_ : c == Coll::allreduce ? pc : 0)
	{
		for (size_t i = 0; i < in_.size(); i++)
			in_[i] = pattern(ctx->rank, i);
		std::vector<float *> ptrs{in_.data()};
		if (c == Coll::allreduce_ring_chunked)
			ring_ = std::make_unique<gloo::AllreduceRingChunked<float>>(
				ctx, ptrs, static_cast<int>(pc));
		if (c == Coll::reducescatter)
			rs_ = std::make_unique<gloo::ReduceScatterHalvingDoubling<float>>(
				ctx, ptrs, static_cast<int>(pc * n_),
				std::vector<int>(n_, static_cast<int>(pc)));
	}

	void run()
	{
		switch (c_) {
		case Coll::allreduce: {
			gloo::AllreduceOptions o(ctx_);
			o.setInput(in_.data(), pc_);
			o.setOutput(out_.data(), pc_);
			o.setReduceFunction(
				static_cast<void (*)(void *, const void *, const void *, size_t)>(
					&gloo::sum<float>));
			gloo::allreduce(o);
			break;
		}
		case Coll::allgather: {
			gloo::AllgatherOptions o(ctx_);
			o.setInput(in_.data(), pc_);
			o.setOutput(out_.data(), pc_ * n_);
			gloo::allgather(o);
			break;
		}
		case Coll::allreduce_ring_chunked:
			ring_->run();
			break;
		case Coll::reducescatter:
			rs_->run();
			break;
		}
	}

	// Wrong elements of this rank's result after the first call.
	long long wrong() const
	{
		const std::vector<float> &got = c_ == Coll::allreduce || c_ == Coll::allgather ? out_ : in_;
		const float sum_ranks = static_cast<float>(n_ * (n_ + 1) / 2);
		size_t off = c_ == Coll::reducescatter ? static_cast<size_t>(ctx_->rank) * pc_ : 0;
		long long bad = 0;
		if (c_ == Coll::allgather) {
			for (size_t r = 0; r < n_; r++)
				for (size_t i = 0; i < pc_; i++)
					bad += got[r * pc_ + i] != pattern(static_cast<int>(r), i);
			return bad;
		}
		for (size_t i = 0; i < pc_; i++)
			bad += got[i] != sum_ranks * pattern(0, off + i);
		return bad;
	}

      private:
	std::shared_ptr<gloo::Context> ctx_;
	Coll c_;
	size_t pc_, n_;
	std::vector<float> in_, out_;
	std::unique_ptr<gloo::AllreduceRingChunked<float>> ring_;
	std::unique_ptr<gloo::ReduceScatterHalvingDoubling<float>> rs_;
};

template <typename T>
T across(const std::shared_ptr<gloo::Context> &ctx, T v,
	 void (*fn)(void *, const void *, const void *, size_t))
{
	T out = 0;
	gloo::AllreduceOptions o(ctx);
	o.setInput(&v, 1);
	o.setOutput(&out, 1);
	o.setReduceFunction(fn);
	o.setTag(1);
	gloo::allreduce(o);
	return out;
}

void barrier(const std::shared_ptr<gloo::Context> &ctx)
{
	gloo::BarrierOptions o(ctx);
	o.setTag(2);
	gloo::barrier(o);
}

int bench(const Args &a, const std::vector<size_t> &sizes)
{
	gloo::transport::tcp::attr attr(a.addr);
	auto dev = gloo::transport::tcp::CreateDevice(attr);
	gloo::rendezvous::FileStore store(a.store);
	auto ctx = std::make_shared<gloo::rendezvous::Context>(a.rank, a.n);
	ctx->setTimeout(call_timeout);
	ctx->connectFullMesh(store, dev);
	std::shared_ptr<gloo::Context> c = ctx;
	const Coll kind = a.algo->kind;
	const double f = kind == Coll::allreduce || kind == Coll::allreduce_ring_chunked
				 ? 2.0 * (a.n - 1) / a.n
				 : static_cast<double>(a.n - 1) / a.n;
	int rc = 0;
	size_t last = static_cast<size_t>(-1);
	for (size_t bytes : sizes) {
		size_t pc = per_rank(kind, bytes, a.n);
		bool whole = kind == Coll::allreduce || kind == Coll::allreduce_ring_chunked;
		size_t row = whole ? pc * sizeof(float) : pc * sizeof(float) * a.n;
		if (row == last || pc == 0)
			continue;
		last = row;
		Bench b(c, kind, pc);
		b.run();
		long long bad = across<long long>(c, b.wrong(), &gloo::sum<long long>);
		for (long w = 0; w < a.warmup; w++)
			b.run();
		barrier(c);
		auto t0 = std::chrono::steady_clock::now();
		for (long i = 0; i < a.iters; i++)
			b.run();
		std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
		double tmax = across<double>(c, dt.count() / static_cast<double>(a.iters),
					     &gloo::max<double>);
		if (bad)
			rc = 2;
		if (a.rank)
			continue;
		double algbw = tmax > 0 ? static_cast<double>(row) / tmax / 1e9 : 0;
		printf("{\"collective\": \"%s\", \"world_size\": %d, \"size_bytes\": %zu, "
		       "\"count\": %zu, \"time_us\": %.3f, \"algbw_GBps\": %.9g, "
		       "\"busbw_GBps\": %.9g, \"wrong\": %lld}\n",
		       a.algo->coll, a.n, row, whole ? pc : pc * a.n, tmax * 1e6, algbw,
		       algbw * f, bad);
		fflush(stdout);
	}
	return rc;
}

} // namespace

int main(int argc, char **argv)
{
	Args a;
	std::vector<size_t> sizes;
	std::string err;
	if (!parse_args(argc, argv, &a, &sizes, &err)) {
		fprintf(stderr,
			"gloo_coll: %s\nusage: gloo_coll RANK NRANKS ADDR STOREDIR COLL ALGO "
			"SIZE[,SIZE...] WARMUP ITERS\n",
			err.c_str());
		return 64;
	}
	try {
		return bench(a, sizes);
	} catch (const std::exception &e) {
		fprintf(stderr, "gloo_coll: rank %d of %d (%s): %s\n", a.rank, a.n, a.addr,
			e.what());
		return 3;
	}
}
