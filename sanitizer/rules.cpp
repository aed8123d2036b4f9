#include "sanitizer/rules.h"

#include "checks/family.h"

namespace td {

namespace {
using F = std::vector<const char*>;
const F kAccess = {"location", "buffer", "coordinates", "element", "byte_offset", "access", "width", "threads"};
const F kRace = {"location", "other_access", "buffer", "coordinates", "element", "byte_offset", "access", "width",
                 "threads"};
const F kLimit = {"location"};
const F kStop = {"location", "threads"};
const F kWild = {"location", "buffer", "byte_offset", "access", "width", "threads"};
const F kSync = {"location", "threads"};
}  // namespace

namespace {

const std::vector<Rule>& builtinRules() {
  static const std::vector<Rule> rules = {
      {rule::GlobalOutOfBounds, "bounds", Severity::Error, "Access outside a global buffer",
       "A load, store, atomic or copy reached global memory outside every buffer the kernel was given, or outside "
       "the one its pointer came from. The access was skipped (a read returned 0), so the run went on.",
       "Guard the index against the buffer's extent (edge tiles: `if (row < M && col < N)`), or fix the index "
       "arithmetic; the coordinates say which element it meant.",
       kAccess},
      {rule::SharedOutOfBounds, "bounds", Severity::Error, "Access outside a shared array",
       "An access left the __shared__ array (or the dynamic shared memory) its pointer came from.",
       "Size the shared tile for the block (padding included), or fix the index; on MetaX the whole block gets "
       "64 KiB.",
       kAccess},
      {rule::MisalignedAccess, "bounds", Severity::Error, "Misaligned access",
       "A vector or wide access at an address that is not a multiple of its width; the GPU faults on it.",
       "Align the buffer or the offset to the access width, or access narrower elements.", kAccess},
      {rule::SharedMemoryLimit, "launch", Severity::Error, "Shared memory over the target's limit",
       "Static and dynamic shared memory of one block exceed what the target allows per block; the launch "
       "would fail (MetaX C500: 65536 bytes).",
       "Shrink the tiles (block_K, stages) or the padding until the bytes fit.", kLimit},
      {rule::ThreadsPerBlockLimit, "launch", Severity::Error, "Threads per block over the target's limit",
       "The block has more threads than the target allows (in all, or along one dimension).",
       "Use fewer threads per block and more blocks.", kLimit},
      {rule::GridLimit, "launch", Severity::Error, "Grid dimension over the target's limit",
       "A grid dimension exceeds the target's (2^31-1 in x, 65535 in y and z on NVIDIA).",
       "Put the large extent in x, or loop inside the kernel.", kLimit},
      {rule::PrivateMemoryLimit, "launch", Severity::Error, "Private memory per thread over the target's limit",
       "The compiled kernel keeps more bytes per thread in private (local) memory than the target allows - local "
       "arrays indexed at run time, which the compiler cannot hold in registers. The launch would fail (MetaX C500: "
       "16 KB per thread, mcErrorMemoryValue).",
       "Make the array smaller, index it with compile-time constants (unrolled loops) so it lives in registers, or "
       "move it to shared memory.",
       kLimit},
      {rule::RegisterLimit, "launch", Severity::Error, "Registers per block over the target's limit",
       "The kernel's registers a thread, times the block's threads (allocated per warp), exceed the registers one "
       "block may have (64K on NVIDIA from compute capability 5.0 on): the driver refuses the launch with "
       "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ('too many resources requested for launch'). Counted by NVIDIA's assembler "
       "on the kernel as written, without __launch_bounds__.",
       "Give the kernel __launch_bounds__(THREADS) so the compiler keeps to the registers a block may have (it spills "
       "instead), or launch fewer threads per block.",
       kLimit},
      {rule::TargetUnsupported, "launch", Severity::Error, "A hardware feature the target lacks",
       "The kernel uses a feature the target GPU does not have - Hopper TMA copies or warpgroup MMA, mbarriers, "
       "thread-block clusters, MMA with fp16 accumulators (none of them on MetaX) - so it cannot be compiled or "
       "run there as it is.",
       "Lower the program for a GPU without the feature (TileLang: --tilelang-arch sm_80), or use the target's "
       "own form; the note names it.",
       kLimit},
      {rule::LaunchBoundsDefault, "launch", Severity::Warning, "More threads than the target compiles an unbounded kernel for",
       "The kernel has no __launch_bounds__ and is launched with more threads per block than the target's compiler "
       "assumes without one (MACA: 512, where CUDA assumes 1024). MetaX's runtime then recompiles the kernel for "
       "the larger block at its first launch; the kernel was checked as launched.",
       "Give the kernel __launch_bounds__(THREADS) for the block it is launched with (TileLang's kernels always "
       "have one).",
       kLimit},
      {rule::KernelFault, "run", Severity::Error, "The kernel faulted",
       "The kernel stopped on an access the checks did not cover (a pointer from no argument) or an illegal "
       "instruction.",
       "Run it on the CPU executor to see the thread and the instruction.", kStop},
      {rule::KernelHang, "run", Severity::Error, "The kernel did not finish within --timeout",
       "Threads spin, or wait at barriers that never complete.",
       "Look at where the threads wait; a barrier inside a branch only some threads take is the usual cause.",
       kStop},
      {rule::KernelStillRunning, "run", Severity::Error, "The kernel was still running when --timeout ran out",
       "The run made progress to the end (barriers released, threads and blocks finished) but did not finish in "
       "time: a slow run, not a hang. Nothing after the stop was checked.",
       "Give it more time (--timeout), check a sample of the blocks (--blocks sample:N), or make the shape smaller.",
       kStop},
      {rule::Deadlock, "run", Severity::Error, "Threads wait and none can proceed",
       "Every remaining thread waits at a barrier or a warp operation that the others never reach.",
       "Make every thread of the block reach the same barriers (no return before __syncthreads).", kStop},
      {rule::KernelCrash, "run", Severity::Error, "The executor's process crashed",
       "The kernel's process died: a wild access the checks did not cover, or a system call the sandbox refused.",
       "Read the message: it names the signal or the system call and the thread.", {}},
      {rule::RecordsOverwritten, "run", Severity::Error, "The kernel wrote into tile-doctor's records",
       "A store of the kernel reached the memory where the checks leave their records (an address computed from "
       "an integer, or an access the checks were off for): the records it changed are left out, and the launch's "
       "other findings may be incomplete. On a GPU such a store corrupts whatever lies there.",
       "Look for pointers made from integers or indices with no bound; run with --checks all so every access is "
       "checked.",
       {}},
      {rule::WildAccess, "run", Severity::Error, "An access outside all of the kernel's memory",
       "The kernel read, wrote or called through an address that is none of its buffers, its shared memory, its "
       "thread's own stack or local arrays, or its module's variables and functions (an address computed from an "
       "integer, an index with no bound, a null pointer, a pointer kept past its object). Reported whichever checks "
       "run. On a GPU it ends the launch with an illegal address where nothing is mapped, and silently changes "
       "or reads other memory where something is. tile-doctor skipped the access (a read returned 0) and ran on, "
       "so every such place is reported.",
       "See where the address comes from: the nearest buffer and how far past it the access went are in the "
       "message; run with --checks bounds for the buffer's coordinates.",
       kWild},
      {rule::LaunchRejected, "run", Severity::Error, "The GPU driver refused the launch",
       "cuLaunchKernel returned an error: the kernel never ran, so nothing of it was checked. Usually the compiled "
       "kernel asks for more than the device grants one launch (registers for this many threads, shared memory), "
       "or the launch's shape is invalid for the device.",
       "Read the driver's error in the message; fewer threads per block or less shared memory per block (or "
       "__launch_bounds__) usually fits it. The CPU executor still checks the kernel.",
       {}},
      {rule::DeviceAssert, "run", Severity::Error, "A device assert failed",
       "assert() in the kernel failed; the kernel stopped there.", "The message is the assertion.", kStop},
      {rule::DeviceTrap, "run", Severity::Error, "The kernel trapped", "__trap() ended the kernel.",
       "See where it trapped and why the kernel chose to.", kStop},
      {rule::SharedRaceRaw, "race", Severity::Error, "Read-after-write race on shared memory",
       "A thread read shared memory another thread wrote, with no barrier ordering them.",
       "Put __syncthreads() (T.sync / a pipeline wait) between the write and the read.", kRace},
      {rule::SharedRaceWar, "race", Severity::Error, "Write-after-read race on shared memory",
       "A thread overwrote shared memory another thread still reads, with no barrier between.",
       "Add a barrier before the next write (double-buffered loops need one per stage).", kRace},
      {rule::SharedRaceWaw, "race", Severity::Error, "Write-after-write race on shared memory",
       "Two threads wrote the same shared bytes with nothing ordering them; the result depends on the schedule.",
       "Give each thread its own elements, or order the writes with a barrier or atomics.", kRace},
      {rule::GlobalRaceRaw, "race", Severity::Error, "Read-after-write race on global memory",
       "A thread read global memory another thread (or block) wrote with nothing ordering them.",
       "Blocks are not ordered within a launch: split the kernel, or use atomics and a grid-wide protocol.",
       kRace},
      {rule::GlobalRaceWar, "race", Severity::Error, "Write-after-read race on global memory",
       "A thread overwrote global memory another thread reads, with nothing ordering them.",
       "Write to a separate output, or order the accesses.", kRace},
      {rule::GlobalRaceWaw, "race", Severity::Error, "Write-after-write race on global memory",
       "Two threads or blocks wrote the same global bytes; the last writer wins by chance (edge tiles that wrap "
       "into the next row are a common cause).",
       "Guard the edge so each element has one writer, or use atomics to accumulate.", kRace},
      {rule::SharedRaceSameValue, "race", Severity::Warning, "Unordered writes of the same bytes to shared memory",
       "Threads wrote shared bytes with nothing ordering them, but each stored the bytes already there (every thread "
       "staging the same element, or storing one all-reduced value): no schedule changes what is read. Set aside as "
       "benign unless --strict-races.",
       "Let one thread write (threadIdx.x == 0) if the duplicate stores cost bandwidth; no fix is needed for "
       "correctness.", kRace, "strict-races"},
      {rule::GlobalRaceSameValue, "race", Severity::Warning, "Unordered writes of the same bytes to global memory",
       "Threads or blocks wrote global bytes with nothing ordering them, but each stored the bytes already there "
       "(every thread of a block storing its all-reduced mean): no schedule changes the result. Set aside as benign "
       "unless --strict-races.",
       "Let one thread write (threadIdx.x == 0) if the duplicate stores cost bandwidth; no fix is needed for "
       "correctness.", kRace, "strict-races"},
      {rule::UninitializedSharedRead, "init", Severity::Error, "Read of shared memory no thread wrote",
       "A thread read shared bytes that no thread of the block had written in this launch.",
       "Fill the tile before reading it (all of it, edges included), with a barrier between.", kAccess},
      {rule::UninitializedGlobalRead, "init", Severity::Error, "Read of an uninitialised buffer",
       "A kernel read bytes of a buffer marked init = \"uninit\" (torch.empty) that it had not written.",
       "Initialise the buffer, or read only what the kernel wrote.", kAccess},
      {rule::BarrierDivergence, "sync", Severity::Error, "Barrier reached by part of the block",
       "Threads of one block waited at different barriers, or exited while others waited: undefined on NVIDIA, "
       "a hang on MetaX.",
       "Move the barrier out of the thread-dependent branch.", kSync},
      {rule::WarpMask, "sync", Severity::Error, "Warp collective with a wrong member mask",
       "A shuffle, vote or __syncwarp named lanes that do not take part, or ran in lanes its mask leaves out.",
       "Compute the mask from the lanes that really take part (__activemask or __ballot_sync).", kSync},
      {rule::WarpSizeAssumption, "sync", Severity::Warning, "Code written for 32-lane warps on a 64-lane target",
       "A full-warp mask of 32 bits (0xffffffff) or a lane stride of 32 on a wave-64 target such as MetaX: half "
       "of the wave is left out.",
       "Derive masks and strides from warpSize (64 on MetaX), or use the target's templates.", kSync},
      {rule::BarrierIgnored, "sync", Severity::Warning, "A barrier the target does not execute",
       "A partial (named) barrier, one with a thread count, is empty on MetaX's MACA (tl::__sync_thread_partial: "
       "'all threads will sync in a warp in maca'): the threads it orders on NVIDIA are not ordered there, and "
       "the race check runs the kernel without it.",
       "Synchronise the whole block (__syncthreads), or keep the exchange inside one 64-lane wave.", {"location"}},
      {rule::PrecisionDrift, "numerics", Severity::Warning, "Stored values drift from exact arithmetic",
       "The values a store site wrote differ from the same computation carried out in a wider type (fp32 shadows "
       "for half and bfloat16, fp64 for float) by more than the stored type's threshold, measured normwise: the "
       "largest error over the largest magnitude the site stored. Typical causes: a long reduction accumulated in "
       "half or bfloat16, a sum of many small terms, cancellation.",
       "Accumulate in float (T.gemm / T.reduce with an fp32 accumulator fragment, __hfma chains replaced by float "
       "fma); sum pairwise or with Kahan compensation; subtract the maximum before exp.",
       {"location", "buffer", "coordinates", "threads"}},
      {rule::SubnormalValues, "numerics", Severity::Warning, "Stored values in the subnormal range (--subnormals)",
       "Stores wrote values below the stored type's smallest normal number (half: 6.1e-5), which keep fewer "
       "significant bits, or zeros where exact arithmetic gives a nonzero that small (flushed or rounded away). "
       "Counted per site when --subnormals is given.",
       "Scale the values into the type's normal range (a per-tensor scale, a wider type for the small "
       "intermediates), or check that the GPU's flush-to-zero mode is what the kernel expects.",
       {"location", "buffer"}},
      {rule::FpOverflow, "numerics", Severity::Error, "An infinity born from finite operands",
       "An operation on finite values gave +-inf: the result overflowed its type (exp of a large logit, a product "
       "or a conversion to half above 65504), or a division by zero. Reported where it happened, once per site; "
       "the infinities it then spreads are not reported again.",
       "Scale before the operation (subtract the row maximum before exp), accumulate in a wider type, or guard the "
       "divisor.",
       kStop},
      {rule::FpInvalid, "numerics", Severity::Error, "A NaN born from finite operands",
       "An operation on finite values gave NaN: 0/0, sqrt or log of a negative number, inf - inf inside a math "
       "function. Reported where it happened, once per site.",
       "Guard the operand's domain (clamp before sqrt/log, an epsilon in the divisor).",
       kStop},
      {rule::NondeterministicOutput, "repeat", Severity::Error, "Outputs differ between runs",
       "--repeat ran the kernel again on the same inputs (on the CPU under other thread orders) and elements of "
       "an output changed: a race or a missing barrier.",
       "Look for the race the race family reports, or run with --checks race,sync.",
       {"buffer", "coordinates", "element"}},
  };
  return rules;
}

}  // namespace

std::vector<Rule> allRules() {
  std::vector<Rule> rules = builtinRules();
  for (const Family& f : families()) rules.insert(rules.end(), f.rules.begin(), f.rules.end());
  return rules;
}

const Rule* findRule(std::string_view id) {
  for (const Rule& r : builtinRules())
    if (id == r.id) return &r;
  for (const Family& f : families())
    for (const Rule& r : f.rules)
      if (id == r.id) return &r;
  return nullptr;
}

const char* severityName(Severity s) { return s == Severity::Error ? "error" : "warning"; }

}  // namespace td
