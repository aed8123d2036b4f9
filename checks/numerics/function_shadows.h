// The numerics family's shadow pass over one function (checks/numerics/shadow_pass.h says what it shadows):
// the shadow of every FP value, memory's through the hooks, and the store and birth checks. Its inline-PTX
// part (the SDK's half helpers, mma.sync) is shadow_asm.cpp; its accumulators shadow_loops.cpp; its stores
// shadow_stores.cpp; the rest function_shadows.cpp.
#pragma once
#include <fmt/format.h>
#include <functional>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "checks/numerics/numerics_abi.h"
#include "instrument/accesses.h"
#include "instrument/pointer_roots.h"
#include "instrument/ptx_catalogue.h"
#include "checks/numerics/shadow_math.h"
#include "checks/numerics/shadow_pass.h"
#include "checks/numerics/shadowless_memory.h"
#include "model/site_table.h"
#include "instrument/hook_functions.h"

namespace td::shadows {

inline const char* typeName(llvm::Type* t) {
  t = t->getScalarType();
  return t->isHalfTy() ? "half" : t->isBFloatTy() ? "bfloat16" : t->isFloatTy() ? "float" : "double";
}

inline unsigned typeCode(llvm::Type* t) {
  t = t->getScalarType();
  return t->isHalfTy() ? TD_NUM_HALF : t->isBFloatTy() ? TD_NUM_BF16 : TD_NUM_FLOAT;
}

class FunctionShadows {
 public:
  FunctionShadows(llvm::Function& f, SiteTable& sites, const ShadowOptions& options,
                  const llvm::DenseMap<const llvm::GlobalVariable*, int>& sharedIds, const ShadowlessMemory& shadowless)
      : f_(f), m_(*f.getParent()), ctx_(f.getContext()), sites_(sites), wideNarrow_(options.wideNarrow), countSubnormals_(options.countSubnormals),
        keepOutputShadows_(options.keepOutputShadows),
        accumulatorLevels_(options.accumulatorLevels), sharedIds_(sharedIds),
        shadowless_(shadowless) {}

  void run();

 private:
  // The shadow type of an FP type: fp32 (or fp64) for half and bfloat16, fp64 for float; none for double
  // (taken as exact) and everything else.
  llvm::Type* wideOf(llvm::Type* t) const;

  // `s` as type `to` (same shape): widened or narrowed.
  llvm::Value* convert(llvm::IRBuilder<>& b, llvm::Value* s, llvm::Type* to);

  // Places `b` right after `v`'s definition (after the block's phis for a phi; the entry for an argument).
  void placeAfter(llvm::IRBuilder<>& b, llvm::Value* v);

  // The shadow of an FP value: computed when its definition was visited, else a fresh one from the value.
  llvm::Value* shadowOf(llvm::Value* v);

  static Site describe(llvm::Instruction& i, SiteKind kind, const std::string& what, Space space = Space::Unknown,
                       int object = -1);

  unsigned site(llvm::Instruction& i, SiteKind kind, const std::string& what, Space space = Space::Unknown, int object = -1);

  // `v` combined pairwise with `op` (a tree: a short chain of dependent operations); v is not empty.
  static llvm::Value* pairwise(std::vector<llvm::Value*> v, const std::function<llvm::Value*(llvm::Value*, llvm::Value*)>& op);
  // Every lane of `v` (scalars and vectors) combined into one scalar with `op`, which takes scalars and
  // vectors alike: values of one vector type first lane by lane, then each vector halved onto itself, then
  // the scalars pairwise. On the CPU that is a few vector instructions where a lane-by-lane tree was 2n scalar
  // ones (issue 34: the GEMM's non-finite test and accumulator check were 45% of numerics' cost); the GPU's
  // back end splits the vectors into the same tree as before.
  static llvm::Value* reduceLanes(llvm::IRBuilderBase& b, const std::vector<llvm::Value*>& v,
                                  const std::function<llvm::Value*(llvm::Value*, llvm::Value*)>& op);

  void visit(llvm::Instruction& i);

  // True where `v` is an infinity or a NaN.
  static llvm::Value* nonFinite(llvm::IRBuilderBase& b, llvm::Value* v);

  // A computed shadow for `i`, and the check that a non-finite result of finite operands is born here.
  void define(llvm::Instruction& i, llvm::Value* s, const std::string& op, std::vector<llvm::Value*> operands);

  struct Birth {
    llvm::Instruction* at;  // the operation (its site's place)
    llvm::Value* value;
    llvm::Value* shadow;
    unsigned site;
    std::vector<llvm::Value*> operands;
  };

  // For a birth record, in its cold path (ending at `coldEnd`): which lanes of an fma's addend are non-finite,
  // without keeping the addend live past the fma — where the addend is a loop's phi that the tested result
  // itself comes back to, a mask carried round the loop: zero where the test passed (every tested lane was
  // finite), the result's lanes where it did not, the entering value's test on the way in. Keeping the previous
  // accumulators for the records spilled one at every step of a GEMM's inner loop on the CPU (issue 34); on
  // an H100 the mask cost more than the registers it spared, so it is used where the executor's primitive
  // `few_vector_registers` says so (the CPU). Null where the addend is not such a phi.
  llvm::Value* carriedNonFinite(llvm::Value* addend, const Birth& y, llvm::Instruction* coldEnd);

  // That `value` (the FP result of `at`, or an FP view of its bits) must not be a non-finite value born from
  // finite operands: checked once all of the function is instrumented (checkBirths).
  void checkBirth(llvm::Instruction& at, llvm::Value* value, llvm::Value* s, const std::string& op,
                  std::vector<llvm::Value*> operands);

  // The births of a block are tested a few at a time: the sum of their values (as float) is non-finite when
  // one of them is, so one comparison stands for them all; its cold path hands the runtime their records in
  // one call (a buffer of TD_NUM_BIRTHS: values live across several calls would cost registers), and the
  // runtime reports those whose operands were finite. A product feeding a checked sum of its block needs no
  // term of its own (a non-finite product makes the sum non-finite); the cold path hands it over too.
  void checkBirths();

  // After the last of `tested` (and their shadows): whether any of their values is non-finite, and if so each
  // of `asked` reported to the runtime (which keeps those born of finite operands).
  void emitBirthTest(const std::vector<const Birth*>& tested, const std::vector<const Birth*>& asked);

  void visitCast(llvm::CastInst& c);

  // Which memory a pointer is in, for the hooks (shadowless_memory.h): 0 global (object = argument), 1
  // shared (object = the shared object's id, -1 unknown); -1 neither, or memory no shadow ever differs
  // from its value in (no hook needed).
  int spaceOf(llvm::Value* ptr, int& object);

  // Shadows of the FP values of type `t` loaded from `ptr` by `ld`, one hook call per element, placed after
  // `at` (the load itself, or the bitcast that gives its bits a type); nullptr where memory keeps none.
  llvm::Value* loadShadow(llvm::LoadInst& ld, llvm::Value* ptr, llvm::Type* t, llvm::Instruction* at = nullptr);

  // Stores (shadow_stores.cpp): each leaves value and shadow in memory where something reads them back, and
  // its drift goes to a tally in registers that a run of stores through one site shares.
  struct ShadowedStore {
    llvm::StoreInst* st;
    llvm::Value* value;   // FP (a bit view of an integer store of half bits)
    llvm::Value* shadow;
    llvm::Type* type;
    int space, object;
  };
  std::optional<ShadowedStore> shadowedStore(llvm::StoreInst& st);
  void visitStores();
  static constexpr unsigned kLoopTallies = 4;  // runs in loops whose tallies are carried through the loops
  void emitRun(const std::vector<ShadowedStore>& run, unsigned site, llvm::Loop* nest);

  void visitCall(llvm::CallInst& call);

  // The shadow of integer bits `v` holding a 16-bit FP value or a pair of them (FP type `t`): the one a
  // half operation left, a load's from memory, or a fresh one. Phis get shadow phis, filled at the end.
  llvm::Value* halfShadow(llvm::Value* v, llvm::Type* t);

  // The narrowest type the computation of `v` rounded to inside the kernel, when narrower than `stored`
  // (a float stored as __half2float(__float2half(x)) carries half's precision by the kernel's choice): the
  // narrowing conversions among the instructions `v` is computed from, up to the loads it starts from.
  std::string roundedThrough(llvm::Value* v, llvm::Type* stored);

  // The FP type whose bits integer `v` holds, where a half operation or a phi of them says so; else null.
  llvm::Type* packedTypeOf(llvm::Value* v, unsigned depth = 0);

  // An FP view (type `t`) of integer bits `v`, placed after `v`.
  llvm::Value* viewOf(llvm::Value* v, llvm::Type* t);

  // The CUDA SDK's half/bfloat16 helpers and the matrix operations are inline PTX (instrument/ptx_catalogue):
  // their shadows follow the catalogue's semantics of each statement (shadow_asm.cpp).
  void asmShadow(llvm::CallInst& call, llvm::InlineAsm& ia);
  // mma.sync on f16/bf16 inputs: D's shadow is the product of A's and B's shadows plus C's, summed in
  // double by the warp together (__td_num_mma); its results' shadows are taken at their extractvalues.
  void mmaShadow(llvm::CallInst& call, const PtxStatement& st);
  std::vector<llvm::Value*> mmaOfExactInputs(llvm::CallInst& call, const PtxStatement& st,
                                             const std::vector<llvm::Value*>& c, llvm::IRBuilder<>& b);
  struct MmaChain {  // an fp64 shadow computed as base + (f32 sum of a chain of mmas' products)
    llvm::BasicBlock* block;
    llvm::Value* base;
    llvm::Value* partial;
    unsigned length;
  };
  llvm::DenseMap<llvm::Value*, MmaChain> mmaChains_;
  std::vector<llvm::Value*> mmaInDouble(llvm::CallInst& call, const PtxStatement& st, const std::vector<llvm::Value*>& c,
                                        llvm::IRBuilder<>& b);

  // Loops (shadow_loops.cpp): an iteration counter in every loop with a store or an accumulator (an FP phi
  // of its header), and the per-iteration check of each accumulator's drift.
  struct Accumulation {
    llvm::PHINode* phi;   // the innermost loop's header phi
    llvm::Value* shadow;
    llvm::Type* fpType;   // the FP type it holds (an integer phi of half bits: that half type)
    std::vector<llvm::BasicBlock*> entries;  // the blocks entering the outermost loop it is carried through
    unsigned updates;     // arithmetic operations it goes through per iteration of its innermost loop
    llvm::BasicBlock* outermost;  // the header of the outermost loop it is carried through
  };
  void watchLoops();
  llvm::PHINode* iterationCounter(llvm::Loop& loop);
  const llvm::Instruction* updateOf(const Accumulation& a);
  void watchAccumulation(const std::vector<Accumulation>& group);  // accumulators of one loop and line
  void promoteLoopState();
  int originOf(llvm::Value* stored);  // the accumulator site a stored value comes from, or -1

  // A warp shuffle moves the shadow with the value: each 32-bit word of it through the same shuffle.
  void shuffle(llvm::CallInst& call);

  llvm::Function& f_;
  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  SiteTable& sites_;
  bool wideNarrow_;
  bool countSubnormals_;
  bool keepOutputShadows_;
  std::map<std::string, int> accumulatorLevels_;
  const llvm::DenseMap<const llvm::GlobalVariable*, int>& sharedIds_;
  const ShadowlessMemory& shadowless_;
  PointerRoots roots_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> shadow_;
  struct Packed {
    llvm::Value* shadow;
    llvm::Type* type;  // the FP type whose bits the integer holds
  };
  llvm::DenseMap<llvm::Value*, Packed> packed_;  // integers holding FP bits -> the FP value's shadow
  llvm::DenseMap<llvm::Value*, std::vector<Packed>> results_;  // an asm statement's results, per element
  std::vector<std::pair<llvm::PHINode*, llvm::PHINode*>> phis_;
  std::vector<llvm::StoreInst*> stores_;
  std::vector<Birth> births_;
  llvm::AllocaInst* birthRecords_ = nullptr;  // td_num_birth[TD_NUM_BIRTHS], the cold paths' (emitBirthTest)
  llvm::DenseMap<llvm::Loop*, llvm::PHINode*> counters_;
  llvm::DenseMap<llvm::StoreInst*, llvm::PHINode*> storeIteration_;  // a store's innermost loop's counter
  llvm::DenseMap<llvm::Value*, unsigned> accumulators_;                // header phi -> its accumulator site
  std::vector<llvm::AllocaInst*> loopState_;  // the accumulators' per-thread state, promoted at the end
  std::vector<std::tuple<llvm::PHINode*, llvm::PHINode*, llvm::Type*>> bitsPhis_;  // integer phis of FP bits
};

}  // namespace td::shadows
