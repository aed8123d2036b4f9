#include "runtime/cpu/retarget.h"

#include "model/abi.h"
#include "runtime/executor_limit.h"

#include <fmt/format.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>
#include <llvm/Linker/Linker.h>
#include <map>

#include "frontend/compile_cache.h"
#include "frontend/compiler.h"
#include "frontend/input_error.h"
#include "instrument/shared_objects.h"
#include "instrument/external_calls.h"
#include "instrument/nvvm_barriers.h"
#include "instrument/ptx_catalogue.h"
#include "instrument/shared_layout.h"
#include "model/site_table.h"
#include "runtime/cpu/half_lowering.h"
#include "runtime/cpu/thread_ctx.h"
#include "runtime/cpu/ptx_param.h"
#include "runtime/cpu/warp_ops.h"
#include "instrument/hook_functions.h"

extern const char td_cpu_libdevice_cu[];

namespace td::cpu {

namespace {

class Lowering {
 public:
  Lowering(llvm::Module& m, const SiteTable& sites, const LaunchConstants& launch)
      : m_(m), ctx_(m.getContext()), sites_(sites), launch_(launch) {
    i32_ = llvm::Type::getInt32Ty(ctx_);
    i64_ = llvm::Type::getInt64Ty(ctx_);
    ptr_ = llvm::PointerType::get(ctx_, 0);
    void_ = llvm::Type::getVoidTy(ctx_);
  }

  // The thread context pointer of `f`, fetched once at entry.
  llvm::Value* threadCtx(llvm::Function* f) {
    auto it = ctxOf_.find(f);
    if (it != ctxOf_.end()) return it->second;
    llvm::FunctionCallee get = hookFunction(m_, Hook::cpu_ctx);
    if (auto* fn = llvm::dyn_cast<llvm::Function>(get.getCallee())) {
      fn->setDoesNotAccessMemory();
      fn->setDoesNotThrow();
      fn->setWillReturn();
    }
    llvm::IRBuilder<> b(&*f->getEntryBlock().getFirstInsertionPt());
    llvm::Value* c = b.CreateCall(get, {}, "td.ctx");
    ctxOf_[f] = c;
    return c;
  }

  llvm::Value* ctxField(llvm::IRBuilder<>& b, llvm::Function* f, unsigned field) {
    // Launch constants need no load at all.
    if (field >= kNtidX && field < kNtidX + 3) return b.getInt32(launch_.block[field - kNtidX]);
    if (field >= kNctaidX && field < kNctaidX + 3) return b.getInt32(launch_.grid[field - kNctaidX]);
    if (field == kWarpSize) return b.getInt32(launch_.warpSize);
    llvm::Value* p = b.CreateConstGEP1_32(i32_, threadCtx(f), field);
    llvm::LoadInst* v = b.CreateLoad(i32_, p);
    v->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(ctx_, {}));
    // Never undefined: so a freeze of it (loop unswitching adds them) keeps its range.
    v->setMetadata(llvm::LLVMContext::MD_noundef, llvm::MDNode::get(ctx_, {}));
    uint32_t limit = 0;
    if (field >= kTidX && field < kTidX + 3) limit = launch_.block[field - kTidX];
    else if (field >= kCtaidX && field < kCtaidX + 3) limit = launch_.grid[field - kCtaidX];
    else if (field == kLaneId) limit = launch_.warpSize;
    if (limit > 1) {
      llvm::Metadata* r[] = {llvm::ConstantAsMetadata::get(b.getInt32(0)), llvm::ConstantAsMetadata::get(b.getInt32(limit))};
      v->setMetadata(llvm::LLVMContext::MD_range, llvm::MDNode::get(ctx_, r));
    } else if (limit == 1) {
      v->eraseFromParent();
      return b.getInt32(0);
    }
    return v;
  }

  // A pointer of the thread's context that stays the same while the kernel runs (the worker sets it
  // before the block starts): loaded once at the function's entry, so loops need not reload it.
  llvm::Value* invariantPointer(llvm::Function* f, size_t offset, uint64_t align, const char* name) {
    llvm::Value*& v = pointerOf_[{f, offset}];
    if (v) return v;
    llvm::Instruction* ctx = llvm::cast<llvm::Instruction>(threadCtx(f));
    llvm::IRBuilder<> b(ctx->getNextNode());
    llvm::LoadInst* p = b.CreateLoad(ptr_, b.CreateConstGEP1_64(llvm::Type::getInt8Ty(ctx_), ctx, offset), name);
    p->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(ctx_, {}));
    p->setMetadata(llvm::LLVMContext::MD_nonnull, llvm::MDNode::get(ctx_, {}));
    llvm::Metadata* a = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64_, align));
    p->setMetadata(llvm::LLVMContext::MD_align, llvm::MDNode::get(ctx_, a));
    return v = p;
  }

  // The thread's instance of region `id` (ThreadCtx::region); null for a region this launch lacks.
  llvm::Value* regionPointer(llvm::IRBuilder<>& b, llvm::Function* f, llvm::Value* id) {
    auto* k = llvm::dyn_cast<llvm::ConstantInt>(id);
    if (k && (k->getZExtValue() >= TD_MAX_REGIONS || !((launch_.regionsPresent >> k->getZExtValue()) & 1)))
      return llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0));
    if (k) return invariantPointer(f, kRegionsOffset + k->getZExtValue() * sizeof(void*), 16, "td.region");
    llvm::Value* at = b.CreateGEP(ptr_, b.CreateConstGEP1_64(llvm::Type::getInt8Ty(ctx_), threadCtx(f), kRegionsOffset),
                                  b.CreateZExt(id, i64_));
    return b.CreateLoad(ptr_, at);
  }

  // [p, p + size) inside [base, base + bytes), for any address (containment's primitives).
  llvm::Value* within(llvm::IRBuilder<>& b, llvm::Value* p, llvm::Value* size, llvm::Value* base, llvm::Value* bytes) {
    llvm::Value* off = b.CreateSub(b.CreatePtrToInt(p, i64_), b.CreatePtrToInt(base, i64_));
    size = b.CreateZExtOrTrunc(size, i64_);
    return b.CreateAnd(b.CreateICmpULE(off, bytes), b.CreateICmpULE(size, b.CreateSub(bytes, off)));
  }

  // The window is 16-byte aligned (simt.cpp), which lets alignment checks on it fold away.
  llvm::Value* sharedBase(llvm::Function* f) { return invariantPointer(f, kSharedBaseOffset, 16, "td.shared"); }

  uint64_t placeShared() {
    SharedLayout layout = layOutShared(sites_);
    for (auto& [gv, id] : sharedObjectIds(m_))
      replaceShared(const_cast<llvm::GlobalVariable*>(gv), layout.offsets[id]);
    return layout.staticBytes;
  }

  // A __shared__ variable becomes (shared window + offset) in each function using it; the AS-3 pointer
  // type stays (address-space casts are no-ops on the host).
  void replaceShared(llvm::GlobalVariable* gv, uint64_t offset) {
    llvm::convertUsersOfConstantsToInstructions({gv});
    std::vector<llvm::Use*> uses;
    for (llvm::Use& u : gv->uses()) uses.push_back(&u);
    std::map<llvm::Function*, llvm::Value*> local;
    for (llvm::Use* u : uses) {
      auto* inst = llvm::dyn_cast<llvm::Instruction>(u->getUser());
      if (!inst) continue;
      llvm::Function* f = inst->getFunction();
      llvm::Value*& v = local[f];
      if (!v) {
        llvm::Instruction* base = llvm::cast<llvm::Instruction>(sharedBase(f));
        llvm::IRBuilder<> b(base->getNextNode());
        // In bounds of the window: so the optimiser knows the array's address is not null (a check's
        // `obj ? ... : ...` folds) and keeps its alignment.
        llvm::Value* addr = b.CreateConstInBoundsGEP1_64(llvm::Type::getInt8Ty(ctx_), base, offset);
        v = b.CreateAddrSpaceCast(addr, gv->getType());
      }
      u->set(v);
    }
    if (gv->use_empty()) gv->eraseFromParent();
  }

  // __device__ and __constant__ variables move to the host's address space 0.
  void moveGlobalsToAs0() {
    std::vector<llvm::GlobalVariable*> todo;
    for (llvm::GlobalVariable& gv : m_.globals())
      if (gv.getAddressSpace() != 0 && gv.getAddressSpace() != 3) todo.push_back(&gv);
    for (llvm::GlobalVariable* gv : todo) {
      auto* ng = new llvm::GlobalVariable(m_, gv->getValueType(), gv->isConstant(), gv->getLinkage(),
                                          gv->hasInitializer() ? gv->getInitializer() : nullptr, "", nullptr,
                                          gv->getThreadLocalMode(), 0);
      ng->takeName(gv);
      ng->setAlignment(gv->getAlign());
      gv->replaceAllUsesWith(llvm::ConstantExpr::getAddrSpaceCast(ng, gv->getType()));
      gv->eraseFromParent();
    }
  }

  [[noreturn]] void unsupported(llvm::Instruction& i, const std::string& what) {
    int site = siteOf(i);
    SourceLoc loc = site >= 0 ? sites_.sites[site].loc : userLocation(i);
    throw ExecutorCannotRun(loc, fmt::format("the CPU executor cannot run {} (in {}); run it with --executor cuda on "
                                             "a GPU",
                                             what, loc.function));
  }

  llvm::Value* siteArg(llvm::Instruction& i) {
    int s = siteOf(i);
    return llvm::ConstantInt::get(i32_, s < 0 ? ~0u : static_cast<unsigned>(s));
  }

  // Returns the replacement value, or nullptr when the call is removed; throws for unknown intrinsics.
  void lowerCall(llvm::CallInst* call) {
    llvm::Function* callee = call->getCalledFunction();
    llvm::StringRef name = callee->getName();
    llvm::IRBuilder<> b(call);
    llvm::Function* f = call->getFunction();
    llvm::Value* repl = nullptr;
    auto arg = [&](unsigned k) { return call->getArgOperand(k); };
    Hook primitive{};
    bool isPrimitive = isExecutorPrimitive(name, primitive);
    if (isPrimitive && primitive == Hook::warp_size) {
      repl = ctxField(b, f, kWarpSize);
    } else if (isPrimitive && primitive == Hook::shared_window_bytes) {
      repl = b.getInt32(launch_.sharedWindowBytes);
    } else if (isPrimitive && primitive == Hook::shared_window_offset) {
      llvm::Value* off = b.CreateSub(b.CreatePtrToInt(arg(0), i64_), b.CreatePtrToInt(sharedBase(f), i64_));
      repl = b.CreateTrunc(off, i32_);
    } else if (isPrimitive && primitive == Hook::in_shared_window) {
      repl = within(b, arg(0), arg(1), sharedBase(f), b.getInt64(launch_.sharedWindowBytes));
    } else if (isPrimitive && primitive == Hook::in_own_stack) {
      llvm::Value* low = invariantPointer(f, kStackLowOffset, 16, "td.stack");
      llvm::Value* high = invariantPointer(f, kStackHighOffset, 16, "td.stack.end");
      repl = within(b, arg(0), arg(1), low, b.CreateSub(b.CreatePtrToInt(high, i64_), b.CreatePtrToInt(low, i64_)));
    } else if (isPrimitive && primitive == Hook::region) {
      repl = regionPointer(b, f, arg(0));
    } else if (isPrimitive && (primitive == Hook::block_local_swap || primitive == Hook::block_local_or ||
                               primitive == Hook::block_local_cas)) {
      // One OS thread runs the block: memory only its threads use needs no atomics.
      llvm::Value* v = arg(primitive == Hook::block_local_cas ? 2 : 1);
      llvm::Value* old = b.CreateLoad(v->getType(), arg(0));
      b.CreateStore(primitive == Hook::block_local_swap ? v
                    : primitive == Hook::block_local_or ? b.CreateOr(old, v)
                                                        : b.CreateSelect(b.CreateICmpEQ(old, arg(1)), v, old),
                    arg(0));
      repl = old;
    } else if (isPrimitive && primitive == Hook::mark_site) {
      b.CreateStore(arg(0), b.CreateConstGEP1_32(i32_, threadCtx(f), kLastSite));
    } else if (isPrimitive && primitive == Hook::few_vector_registers) {
      repl = b.getTrue();  // 16 vector registers (AVX2): a vector kept live through a loop is spilled at every step
    } else if (isPrimitive && (primitive == Hook::block_start || primitive == Hook::block_order)) {
      // Nothing: the worker zeroes a block's regions before the block starts, and one OS thread runs the
      // block, in order.
    } else if (name.consume_front("llvm.nvvm.read.ptx.sreg.")) {
      static const std::map<std::string, unsigned> fields = {
          {"tid.x", kTidX}, {"tid.y", kTidX + 1}, {"tid.z", kTidX + 2}, {"ntid.x", kNtidX}, {"ntid.y", kNtidX + 1},
          {"ntid.z", kNtidX + 2}, {"ctaid.x", kCtaidX}, {"ctaid.y", kCtaidX + 1}, {"ctaid.z", kCtaidX + 2},
          {"nctaid.x", kNctaidX}, {"nctaid.y", kNctaidX + 1}, {"nctaid.z", kNctaidX + 2}, {"laneid", kLaneId},
          {"warpid", kWarpId}, {"warpsize", kWarpSize}};
      auto it = fields.find(name.str());
      if (it != fields.end()) {
        repl = ctxField(b, f, it->second);
      } else if (name.starts_with("lanemask.")) {
        llvm::Value* lane = ctxField(b, f, kLaneId);
        llvm::Value* bit = b.CreateShl(b.getInt32(1), lane);
        llvm::StringRef k = name.drop_front(9);
        if (k == "eq") repl = bit;
        else if (k == "lt") repl = b.CreateSub(bit, b.getInt32(1));
        else if (k == "le") repl = b.CreateOr(bit, b.CreateSub(bit, b.getInt32(1)));
        else if (k == "gt") repl = b.CreateNot(b.CreateOr(bit, b.CreateSub(bit, b.getInt32(1))));
        else repl = b.CreateNot(b.CreateSub(bit, b.getInt32(1)));
      } else if (name.starts_with("clock") || name == "globaltimer") {
        llvm::Value* t = b.CreateCall(hookFunction(m_, Hook::cpu_clock));
        repl = call->getType()->isIntegerTy(64) ? t : b.CreateTrunc(t, call->getType());
      } else {
        unsupported(*call, "the special register %" + name.str());
      }
    } else if (NvvmBarrier barrier = nvvmBarrierOf(name); barrier == NvvmBarrier::Block) {
      b.CreateCall(hookFunction(m_, Hook::cpu_barrier), {siteArg(*call), b.getInt32(0), b.getInt32(0)});
    } else if (barrier == NvvmBarrier::Named) {
      b.CreateCall(hookFunction(m_, Hook::cpu_barrier), {siteArg(*call), arg(0), b.getInt32(0)});
    } else if (barrier == NvvmBarrier::NamedCounted) {
      b.CreateCall(hookFunction(m_, Hook::cpu_barrier), {siteArg(*call), arg(0), arg(1)});
    } else if (barrier == NvvmBarrier::BlockReduce) {
      int op = name.ends_with("popc") ? kRedPopc : name.ends_with("and") ? kRedAnd : kRedOr;
      repl = b.CreateCall(hookFunction(m_, Hook::cpu_barrier_reduce),
                          {siteArg(*call), b.getInt32(op), b.CreateZExtOrTrunc(arg(0), i32_)});
    } else if (name == "llvm.nvvm.bar.warp.sync") {
      warp(b, *call, kSyncWarp, 0, arg(0), b.getInt32(0), b.getInt32(0), b.getInt32(0));
    } else if (name == "llvm.nvvm.activemask") {
      repl = warp(b, *call, kActiveMask, 0, b.getInt32(-1), b.getInt32(0), b.getInt32(0), b.getInt32(0));
    } else if (name.consume_front("llvm.nvvm.shfl.")) {
      // shfl.sync.MODE.TYPE(mask, v, b, c), or the mask-less shfl.MODE.TYPE(v, b, c) (the whole warp; what
      // clang's __shfl family for HIP code lowers to)
      bool sync = name.consume_front("sync.");
      auto [mode, type] = name.split('.');
      int m = mode == "idx" ? kIdx : mode == "up" ? kUp : mode == "down" ? kDown : mode == "bfly" ? kBfly : -1;
      if (m < 0 || type.contains('p')) unsupported(*call, "the NVVM intrinsic " + callee->getName().str());
      unsigned first = sync ? 1 : 0;
      llvm::Value* v = arg(first);
      if (v->getType()->isFloatTy()) v = b.CreateBitCast(v, i32_);
      repl = warp(b, *call, kShfl, m, sync ? arg(0) : b.getInt32(-1), v, arg(first + 1), arg(first + 2));
      if (call->getType()->isFloatTy()) repl = b.CreateBitCast(repl, call->getType());
    } else if (name.consume_front("llvm.nvvm.redux.sync.")) {
      // redux.sync.OP(v, mask): CUDA's __reduce_*_sync (the same warp operation as the PTX statement)
      int m = name == "add" ? 0 : name == "min" || name == "umin" ? 1 : name == "max" || name == "umax" ? 2
            : name == "and" ? 3 : name == "or" ? 4 : name == "xor" ? 5 : -1;
      if (m < 0) unsupported(*call, "the NVVM intrinsic " + callee->getName().str());
      if (name == "min" || name == "max") m |= kReduxSigned;
      repl = warp(b, *call, kRedux, m, arg(1), arg(0), b.getInt32(0), b.getInt32(0));
    } else if (name.consume_front("llvm.nvvm.vote.")) {
      auto mode = name.split('.').first;
      int m = mode == "all" ? kAll : mode == "any" ? kAny : mode == "uni" ? kUni : kBallot;
      repl = warp(b, *call, kVote, m, arg(0), b.CreateZExt(arg(1), i32_), b.getInt32(0), b.getInt32(0));
      if (call->getType()->isIntegerTy(1)) repl = b.CreateICmpNE(repl, b.getInt32(0));
    } else if (name.starts_with("llvm.nvvm.membar") || name.starts_with("llvm.nvvm.fence")) {
      b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    } else if (name == "__assertfail" || name == "llvm.trap") {
      // The thread's record is written (StopSitesPass); the grid ends as the GPU's does.
      b.CreateCall(hookFunction(m_, Hook::cpu_stop));
    } else if (name == "vprintf") {
      repl = b.CreateCall(hookFunction(m_, Hook::cpu_vprintf), {arg(0), arg(1)});
    } else if (name == "malloc" || name == "free") {
      unsupported(*call, "device " + name.str() + "() (the CPU executor gives kernels no device heap)");
    } else if (name.starts_with("llvm.nvvm.ldg.global.") || name.starts_with("llvm.nvvm.ldu.global.")) {
      auto* align = llvm::cast<llvm::ConstantInt>(arg(1));
      repl = b.CreateAlignedLoad(call->getType(), arg(0), llvm::MaybeAlign(align->getZExtValue()));
    } else {
      unsupported(*call, "the NVVM intrinsic " + callee->getName().str());
    }
    if (repl) call->replaceAllUsesWith(repl);
    call->eraseFromParent();
  }

  llvm::Value* warp(llvm::IRBuilder<>& b, llvm::CallInst& call, int op, int mode, llvm::Value* mask, llvm::Value* a,
                    llvm::Value* bv, llvm::Value* c) {
    return b.CreateCall(hookFunction(m_, Hook::cpu_warp),
                        {siteArg(call), b.getInt32(op), b.getInt32(mode), mask, a, bv, c});
  }

  // Device-runtime primitives the CPU executor implements inline (runtime/device/td_core.cuh).
  static bool isExecutorPrimitive(llvm::StringRef n, Hook& which) {
    return hookOfSymbol(n, which) && hookInfo(which).floor == HookFloor::Primitive;
  }
  static bool isExecutorPrimitive(llvm::StringRef n) {
    Hook which;
    return isExecutorPrimitive(n, which);
  }

  // CUDA's device runtime (printf, assert, heap) and the trap: the CPU executor's own versions.
  static bool isDeviceRuntimeCall(llvm::StringRef n) { return isCudaDeviceRuntime(n) || n == "llvm.trap"; }

  // A catalogue statement becomes __td_cpu_asm(site, op, param, in, out): operands as 64-bit slots in
  // asm operand order (inputs only), results read back from `out`.
  void lowerPtx(llvm::CallInst* call, const PtxStatement& st) {
    if (lowerPtxToScheduler(call, st)) return;
    llvm::IRBuilder<> entry(&*call->getFunction()->getEntryBlock().getFirstInsertionPt());
    llvm::Type* rt = call->getType();
    auto* results = llvm::dyn_cast<llvm::StructType>(rt);
    unsigned outputs = results ? results->getNumElements() : 1;  // a 32x32 MFMA: 16 results, 20 inputs
    llvm::Value* in = entry.CreateAlloca(llvm::ArrayType::get(i64_, std::max(1u, call->arg_size())));
    llvm::Value* out = entry.CreateAlloca(llvm::ArrayType::get(i64_, outputs));
    llvm::IRBuilder<> b(call);
    for (unsigned k = 0; k < call->arg_size(); ++k) {
      llvm::Value* v = call->getArgOperand(k);
      llvm::Type* t = v->getType();
      if (t->isPointerTy()) v = b.CreatePtrToInt(v, i64_);
      else if (t->isFloatingPointTy()) v = b.CreateZExt(b.CreateBitCast(v, b.getIntNTy(t->getPrimitiveSizeInBits())), i64_);
      else v = b.CreateZExtOrTrunc(v, i64_);
      b.CreateStore(v, b.CreateConstGEP1_32(i64_, in, k));
    }
    uint32_t param = packPtxParam(st);
    b.CreateCall(hookFunction(m_, Hook::cpu_asm),
                 {siteArg(*call), b.getInt32(static_cast<uint32_t>(st.op)), b.getInt32(param), in, out});
    auto slot = [&](unsigned k, llvm::Type* t) -> llvm::Value* {
      llvm::Value* v = b.CreateLoad(i64_, b.CreateConstGEP1_32(i64_, out, k));
      if (t->isFloatingPointTy()) return b.CreateBitCast(b.CreateTrunc(v, b.getIntNTy(t->getPrimitiveSizeInBits())), t);
      return b.CreateTrunc(v, t);
    };
    if (results) {
      llvm::Value* agg = llvm::UndefValue::get(results);
      for (unsigned k = 0; k < outputs; ++k) agg = b.CreateInsertValue(agg, slot(k, results->getElementType(k)), k);
      call->replaceAllUsesWith(agg);
    } else if (!rt->isVoidTy()) {
      call->replaceAllUsesWith(slot(0, rt));
    }
    call->eraseFromParent();
  }

  // Barriers, shuffles and reductions written as asm are the scheduler's own operations.
  bool lowerPtxToScheduler(llvm::CallInst* call, const PtxStatement& st) {
    llvm::IRBuilder<> b(call);
    auto arg = [&](unsigned k) { return b.CreateZExtOrTrunc(call->getArgOperand(k), i32_); };
    llvm::Value* repl = nullptr;
    if (st.op == PtxOp::Barrier) {
      int idOp = barrierIdOperand(st), countOp = barrierCountOperand(st);
      llvm::Value* id = idOp < 0 ? b.getInt32(st.count) : arg(idOp);
      llvm::Value* count = countOp >= 0 ? arg(countOp) : b.getInt32(st.hasCount ? st.mode : 0);
      b.CreateCall(hookFunction(m_, st.arrive ? Hook::cpu_barrier_arrive : Hook::cpu_barrier),
                   {siteArg(*call), id, count});
    } else if (st.op == PtxOp::Shfl) {  // operands: a, b, c, membermask
      repl = warp(b, *call, kShfl, st.mode, arg(3), b.CreateBitCast(call->getArgOperand(0), i32_), arg(1), arg(2));
      if (call->getType() != i32_) repl = b.CreateBitCast(repl, call->getType());
    } else if (st.op == PtxOp::Redux) {  // operands: a, membermask
      repl = warp(b, *call, kRedux, st.mode | (st.isSigned ? kReduxSigned : 0), arg(1), arg(0), b.getInt32(0), b.getInt32(0));
    } else if (st.op == PtxOp::Vote) {  // $0 is the result; operands from $1 on are the call's arguments
      llvm::Value* pred = b.CreateZExt(b.CreateICmpNE(arg(st.valueOperand - 1), b.getInt32(0)), i32_);
      repl = warp(b, *call, kVote, st.mode, arg(st.sizeOperand - 1), pred, b.getInt32(0), b.getInt32(0));
    } else if (st.op == PtxOp::CvtPack) {  // round each float to f16/bf16, high half from the first source
      auto half = [&](unsigned operand) {
        llvm::Value* f = call->getArgOperand(operand - 1);
        llvm::Type* t = st.k == 1 ? b.getBFloatTy() : b.getHalfTy();
        return b.CreateZExt(b.CreateBitCast(b.CreateFPTrunc(f, t), b.getInt16Ty()), i32_);
      };
      repl = b.CreateOr(b.CreateShl(half(st.valueOperand), 16), half(st.mode));
      if (call->getType() != i32_) repl = b.CreateBitCast(repl, call->getType());
    } else if (st.op == PtxOp::Lop3) {
      repl = lop3(b, *call, st);
    } else if (st.op == PtxOp::Dp4a) {
      repl = dp4a(b, *call, st);
    } else if (st.op == PtxOp::ScopedLoad || st.op == PtxOp::ScopedStore || st.op == PtxOp::ScopedAtomic) {
      repl = scopedAccess(b, *call, st);
    } else if (st.op == PtxOp::CvtFloatWidth) {  // LLVM's fptrunc rounds to nearest even, keeping subnormals
      llvm::Value* x = call->getArgOperand(0);
      llvm::Type* to = call->getType();
      repl = to->getPrimitiveSizeInBits() < x->getType()->getPrimitiveSizeInBits() ? b.CreateFPTrunc(x, to) : b.CreateFPExt(x, to);
    } else if (st.op == PtxOp::Fence) {
      b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    } else if (st.op == PtxOp::CvtToFp8x2) {  // high byte from the first source, as cvt.rn.f16x2.f32
      auto byte = [&](unsigned operand) {
        return b.CreateCall(hookFunction(m_, Hook::cpu_float_to_fp8),
                            {call->getArgOperand(operand - 1), b.getInt32((st.aUnsigned ? 1 : 0) | (st.relu ? 2 : 0))});
      };
      repl = asResult(b, b.CreateOr(b.CreateShl(byte(st.operands[0]), 8), byte(st.operands[1])), call->getType());
    } else if (st.op == PtxOp::CvtFromFp8x2) {  // each byte to its half, exactly (fp8 values are halves)
      llvm::Value* pair = bitsOf(b, call->getArgOperand(st.operands[0] - 1), i32_);
      auto half = [&](unsigned shift) {
        llvm::Value* byte = b.CreateAnd(b.CreateLShr(pair, shift), 0xff);
        llvm::Value* f = b.CreateCall(hookFunction(m_, Hook::cpu_fp8_to_float),
                                      {byte, b.getInt32(st.aUnsigned ? 1 : 0)});
        llvm::Value* h = b.CreateBitCast(b.CreateFPTrunc(f, b.getHalfTy()), b.getInt16Ty());
        h = b.CreateSelect(b.CreateFCmpUNO(f, f), b.getInt16(0x7fff), h);  // the canonical NaN (measured, H200)
        return b.CreateZExt(h, i32_);
      };
      repl = asResult(b, b.CreateOr(b.CreateShl(half(8), 16), half(0)), call->getType());
    } else if (st.op == PtxOp::HalfScalar) {
      repl = lowerHalfScalar(b, *call, st);
    } else {
      return false;
    }
    if (repl) call->replaceAllUsesWith(repl);
    call->eraseFromParent();
    return true;
  }

  // ld.relaxed / ld.acquire as an atomic load, st.relaxed / st.release as an atomic store; atom.add as an
  // atomicrmw (integers, f32, f64) or, for the 16-bit float types and their pairs, a compare-and-swap loop in
  // the host runtime; atom.cas as a cmpxchg, the others as their atomicrmw. The old value comes back.
  llvm::Value* scopedAccess(llvm::IRBuilder<>& b, llvm::CallInst& call, const PtxStatement& st) {
    unsigned bytes = ptxTypeBytes(st.valueType);
    llvm::Type* bits = b.getIntNTy(8 * bytes);
    llvm::Value* p = call.getArgOperand(0);
    p = p->getType()->isPointerTy() ? b.CreateAddrSpaceCast(p, ptr_) : b.CreateIntToPtr(p, ptr_);
    auto asBits = [&](llvm::Value* v) { return bitsOf(b, v, bits); };
    auto ordering = st.acquire ? llvm::AtomicOrdering::SequentiallyConsistent : llvm::AtomicOrdering::Monotonic;
    llvm::Align align(bytes);
    if (st.op == PtxOp::ScopedStore) {
      b.CreateAlignedStore(asBits(call.getArgOperand(1)), p, align)->setAtomic(ordering);
      return nullptr;
    }
    llvm::Value* old;
    bool isFloat = st.valueType[0] == 'f';
    bool isSigned = st.valueType[0] == 's';
    if (st.op == PtxOp::ScopedLoad) {
      auto* ld = b.CreateAlignedLoad(bits, p, align);
      ld->setAtomic(ordering);
      old = ld;
    } else if (st.atomic == ScopedAtomicOp::Cas) {
      auto* cx = b.CreateAtomicCmpXchg(p, asBits(call.getArgOperand(1)), asBits(call.getArgOperand(2)), align, ordering,
                                       llvm::AtomicOrdering::Monotonic);
      old = b.CreateExtractValue(cx, 0);
    } else if (st.atomic != ScopedAtomicOp::Add) {
      static const std::map<ScopedAtomicOp, std::pair<llvm::AtomicRMWInst::BinOp, llvm::AtomicRMWInst::BinOp>> rmw = {
          {ScopedAtomicOp::Exch, {llvm::AtomicRMWInst::Xchg, llvm::AtomicRMWInst::Xchg}},
          {ScopedAtomicOp::Min, {llvm::AtomicRMWInst::Min, llvm::AtomicRMWInst::UMin}},
          {ScopedAtomicOp::Max, {llvm::AtomicRMWInst::Max, llvm::AtomicRMWInst::UMax}},
          {ScopedAtomicOp::And, {llvm::AtomicRMWInst::And, llvm::AtomicRMWInst::And}},
          {ScopedAtomicOp::Or, {llvm::AtomicRMWInst::Or, llvm::AtomicRMWInst::Or}},
          {ScopedAtomicOp::Xor, {llvm::AtomicRMWInst::Xor, llvm::AtomicRMWInst::Xor}}};
      auto ops = rmw.at(st.atomic);
      old = b.CreateAtomicRMW(isSigned ? ops.first : ops.second, p, asBits(call.getArgOperand(1)), align, ordering);
    } else if (bytes <= 2 || st.valueType.find("x2") != std::string::npos) {
      uint32_t kind = (st.valueType.rfind("bf16", 0) == 0 ? 1u : 0u) | (st.valueType.find("x2") != std::string::npos ? 2u : 0u);
      old = b.CreateCall(hookFunction(m_, Hook::cpu_atom_add_16),
                         {p, b.CreateZExtOrTrunc(asBits(call.getArgOperand(1)), i32_), b.getInt32(kind)});
      old = b.CreateZExtOrTrunc(old, bits);
    } else if (isFloat) {
      llvm::Type* ft = bytes == 4 ? b.getFloatTy() : b.getDoubleTy();
      llvm::Value* v = b.CreateBitCast(asBits(call.getArgOperand(1)), ft);
      old = b.CreateBitCast(b.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, p, v, align, ordering), bits);
    } else {
      old = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, p, asBits(call.getArgOperand(1)), align, ordering);
    }
    return asResult(b, old, call.getType());
  }

  // An operand's bits as the integer type `to` (a float reinterpreted, then widened or cut), and back: an
  // integer's bits as a result of type `to`.
  llvm::Value* bitsOf(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Type* to) {
    llvm::Type* t = v->getType();
    if (t->isFloatingPointTy()) v = b.CreateBitCast(v, b.getIntNTy(t->getPrimitiveSizeInBits()));
    return b.CreateZExtOrTrunc(v, to);
  }
  llvm::Value* asResult(llvm::IRBuilder<>& b, llvm::Value* bits, llvm::Type* to) {
    if (!to->isFloatingPointTy()) return b.CreateZExtOrTrunc(bits, to);
    return b.CreateBitCast(b.CreateZExtOrTrunc(bits, b.getIntNTy(to->getPrimitiveSizeInBits())), to);
  }

  // dp4a: c + a.b0 * b.b0 + ... + a.b3 * b.b3, each byte signed or not as the statement says; wraps at 32 bits.
  llvm::Value* dp4a(llvm::IRBuilder<>& b, llvm::CallInst& call, const PtxStatement& st) {
    auto src = [&](int operand) { return bitsOf(b, call.getArgOperand(operand - 1), i32_); };
    llvm::Value *x = src(st.operands[0]), *y = src(st.operands[1]), *sum = src(st.operands[2]);
    auto byte = [&](llvm::Value* word, unsigned k, bool isUnsigned) {
      llvm::Value* v = b.CreateTrunc(b.CreateLShr(word, 8 * k), b.getInt8Ty());
      return isUnsigned ? b.CreateZExt(v, i32_) : b.CreateSExt(v, i32_);
    };
    for (unsigned k = 0; k < 4; ++k) sum = b.CreateAdd(sum, b.CreateMul(byte(x, k, st.aUnsigned), byte(y, k, st.bUnsigned)));
    return asResult(b, sum, call.getType());
  }

  // lop3.b32: bit i of the result is bit (a_i b_i c_i) of the truth table: the OR of the table's minterms,
  // each the AND of the three sources or their complements, kept where the table's bit is set.
  llvm::Value* lop3(llvm::IRBuilder<>& b, llvm::CallInst& call, const PtxStatement& st) {
    auto src = [&](int operand) { return b.CreateZExtOrTrunc(call.getArgOperand(operand - 1), i32_); };
    llvm::Value *x = src(st.operands[0]), *y = src(st.operands[1]), *z = src(st.operands[2]);
    llvm::Value* lut = st.lutOperand >= 0 ? src(st.lutOperand) : b.getInt32(st.immediate);
    llvm::Value* result = b.getInt32(0);
    for (unsigned k = 0; k < 8; ++k) {
      llvm::Value* term = b.CreateAnd(b.CreateAnd(k & 4 ? x : b.CreateNot(x), k & 2 ? y : b.CreateNot(y)),
                                      k & 1 ? z : b.CreateNot(z));
      llvm::Value* keep = b.CreateNeg(b.CreateAnd(b.CreateLShr(lut, k), 1));  // all ones where the bit is set
      result = b.CreateOr(result, b.CreateAnd(term, keep));
    }
    return asResult(b, result, call.getType());
  }

  // ptrtoint of a shared pointer is its offset in the shared window (cvta.to.shared); inttoptr back
  // to a shared pointer adds the window's base.
  void lowerSharedAddressArithmetic() {
    std::vector<llvm::Instruction*> todo;
    for (llvm::Function& f : m_)
      for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb) {
          if (auto* p2i = llvm::dyn_cast<llvm::PtrToIntInst>(&i); p2i && p2i->getPointerAddressSpace() == 3) todo.push_back(&i);
          if (auto* i2p = llvm::dyn_cast<llvm::IntToPtrInst>(&i); i2p && i2p->getAddressSpace() == 3) todo.push_back(&i);
        }
    for (llvm::Instruction* i : todo) {
      llvm::IRBuilder<> b(i);
      llvm::Value* base = sharedBase(i->getFunction());
      llvm::Value* r;
      if (auto* p2i = llvm::dyn_cast<llvm::PtrToIntInst>(i)) {
        llvm::Value* off = b.CreateSub(b.CreatePtrToInt(p2i->getPointerOperand(), i64_), b.CreatePtrToInt(base, i64_));
        r = b.CreateZExtOrTrunc(off, i->getType());
      } else {
        llvm::Value* addr = b.CreateGEP(b.getInt8Ty(), base, b.CreateZExtOrTrunc(i->getOperand(0), i64_));
        r = b.CreateAddrSpaceCast(addr, i->getType());
      }
      i->replaceAllUsesWith(r);
      i->eraseFromParent();
    }
  }

  void lowerIntrinsicsAndAsm() {
    std::vector<llvm::CallInst*> calls;
    for (llvm::Function& f : m_)
      for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
          if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) {
            if (auto* ia = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand())) {
              auto st = ia->getAsmString().empty() ? std::nullopt : parsePtx(ia->getAsmString());
              if (st && launch_.warpSize != 32 &&
                  (st->op == PtxOp::Mma || st->op == PtxOp::LdMatrix || st->op == PtxOp::StMatrix))
                unsupported(i, fmt::format("the inline PTX statement \"{}\": a 32-lane NVIDIA warp instruction, and "
                                           "the target's warp has {} lanes (CUDA output such as TileLang's runs on an "
                                           "NVIDIA target profile)", ia->getAsmString(), launch_.warpSize));
              if (st && launch_.warpSize != 64 && st->op == PtxOp::Mfma)
                unsupported(i, fmt::format("the matrix instruction \"{}\": a 64-lane wave instruction (HIP output), and "
                                           "the target's warp has {} lanes (HIP output runs on a wave-64 target profile)",
                                           ia->getAsmString(), launch_.warpSize));
              if (ia->getAsmString().empty() || st) { calls.push_back(call); continue; }
              std::string why = ptxLimitation(ia->getAsmString());
              unsupported(i, "the inline PTX statement \"" + ia->getAsmString() + "\"" +
                                 (why.empty() ? " (not in the inline-PTX catalogue, docs/guide-check.md)" : ": " + why));
            }
            if (llvm::Function* callee = call->getCalledFunction();
                callee && (callee->getName().starts_with("llvm.nvvm.") || isExecutorPrimitive(callee->getName()) ||
                           isDeviceRuntimeCall(callee->getName())))
              calls.push_back(call);
          }
    for (llvm::CallInst* c : calls) {
      if (auto* ia = llvm::dyn_cast<llvm::InlineAsm>(c->getCalledOperand())) {
        if (auto st = parsePtx(ia->getAsmString())) lowerPtx(c, *st);
        else c->eraseFromParent();  // an empty asm: a compiler barrier only
      } else {
        lowerCall(c);
      }
    }
  }

  // GPU-only attributes. `convergent` goes too: on the CPU a barrier is an ordinary call into the
  // scheduler, and code motion around it is harmless, while the attribute blocks unrolling.
  void stripGpuAttributes() {
    for (llvm::Function& f : m_) {
      f.removeFnAttr("target-cpu");
      f.removeFnAttr("target-features");
      f.removeFnAttr("tune-cpu");
      f.removeFnAttr(llvm::Attribute::Convergent);
      for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
          if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i)) call->removeFnAttr(llvm::Attribute::Convergent);
    }
    if (llvm::NamedMDNode* ann = m_.getNamedMetadata("nvvm.annotations")) ann->eraseFromParent();
  }

  // Kernels read a thread's local arrays through vector casts (`*(float4*)(C_local + 4 * i)` of a float
  // array): on a GPU the array lives in registers; on the CPU it is a stack slot, and the host's aligned
  // vector moves fault on one aligned less than the vector (seen: HIP's float32x4 MFMA accumulators).
  void alignLocalArrays() {
    for (llvm::Function& f : m_)
      for (llvm::BasicBlock& bb : f)
        for (llvm::Instruction& i : bb)
          if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i); a && a->getAlign() < llvm::Align(16))
            a->setAlignment(llvm::Align(16));
  }

  void buildTrampoline(const std::string& entry) {
    // Only the trampoline (and the function the executor lands asynchronous copies through) stays visible,
    // so everything inlines into it.
    for (llvm::Function& f : m_)
      if (!f.isDeclaration() && f.getName() != kAsyncCopyLanding) f.setLinkage(llvm::GlobalValue::InternalLinkage);
    // Hooks the device runtime marks (TD_INLINE_ON_CPU) are too large for the inliner's taste, but out of
    // line each call fetches the thread context again (measured: 6% of a GEMM with every check in
    // __td_cpu_ctx); inlined, they share the kernel's.
    for (llvm::Function& f : m_)
      if (!f.isDeclaration() && f.hasFnAttribute(kInlineOnCpuAttribute)) f.addFnAttr(llvm::Attribute::AlwaysInline);
    llvm::Function* kernel = m_.getFunction(entry);
    llvm::Function* t = llvm::Function::Create(llvm::FunctionType::get(void_, {ptr_}, false),
                                               llvm::GlobalValue::ExternalLinkage, kTrampolineName, m_);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx_, "entry", t));
    std::vector<llvm::Value*> args;
    for (llvm::Argument& a : kernel->args()) {
      llvm::Value* slot = b.CreateLoad(ptr_, b.CreateConstGEP1_32(ptr_, t->getArg(0), a.getArgNo()));
      args.push_back(b.CreateLoad(a.getType(), slot));
    }
    b.CreateCall(kernel, args);
    b.CreateRetVoid();
  }

 private:
  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  const SiteTable& sites_;
  LaunchConstants launch_;
  llvm::Type *i32_, *i64_, *ptr_, *void_;
  std::map<llvm::Function*, llvm::Value*> ctxOf_;
  std::map<std::pair<llvm::Function*, size_t>, llvm::Value*> pointerOf_;
};

}  // namespace

void linkCpuLibdevice(llvm::Module& m) {
  CompileOptions opts;
  opts.optLevel = "-O2";
  std::unique_ptr<llvm::Module> lib =
      compileEmbeddedCached(m.getContext(), "/__tile_doctor__/src/cpu_libdevice.cu", td_cpu_libdevice_cu, opts);
  lib->setDataLayout(m.getDataLayout());
  lib->setTargetTriple(m.getTargetTriple());
  for (llvm::Function& f : *lib)
    if (!f.isDeclaration()) f.removeFnAttr(llvm::Attribute::NoInline);
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::Flags::LinkOnlyNeeded))
    throw std::runtime_error("linking the CPU libdevice failed");
}

RetargetResult retargetToHost(llvm::Module& m, const std::string& entrySymbol, const std::string& triple,
                              const llvm::DataLayout& dl, const SiteTable& sites, const LaunchConstants& launch) {
  RetargetResult r;
  Lowering low(m, sites, launch);
  low.lowerIntrinsicsAndAsm();
  r.staticSharedBytes = low.placeShared();
  low.lowerSharedAddressArithmetic();
  low.moveGlobalsToAs0();
  low.stripGpuAttributes();
  low.alignLocalArrays();
  low.buildTrampoline(entrySymbol);
  m.setTargetTriple(triple);
  m.setDataLayout(dl);
  return r;
}

}  // namespace td::cpu
