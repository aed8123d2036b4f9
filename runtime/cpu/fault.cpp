#include "runtime/cpu/fault.h"

#include <capstone/capstone.h>
#include <csignal>
#include <initializer_list>
#include <cstdio>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace td::cpu {

namespace {

FaultSink gSink = nullptr;
csh gCapstone = 0;

void decode(uint64_t pc, DecodedFault& f) {
  std::snprintf(f.instruction, sizeof f.instruction, "<not decoded>");
  if (!gCapstone) return;
  cs_insn* insn = nullptr;
  size_t n = cs_disasm(gCapstone, reinterpret_cast<const uint8_t*>(pc), 16, pc, 1, &insn);
  if (n == 0) return;
  std::snprintf(f.instruction, sizeof f.instruction, "%s %s", insn[0].mnemonic, insn[0].op_str);
  if (insn[0].detail) {
    const cs_x86& x86 = insn[0].detail->x86;
    // Capstone 4 marks the memory destination of AVX moves (vmovss [mem], xmm) as read: a move's first
    // operand is its destination in Intel syntax, whatever the access flags say.
    bool move = std::strncmp(insn[0].mnemonic, "mov", 3) == 0 || std::strncmp(insn[0].mnemonic, "vmov", 4) == 0;
    for (uint8_t i = 0; i < x86.op_count; ++i) {
      const cs_x86_op& op = x86.operands[i];
      if (op.type != X86_OP_MEM) continue;
      f.width = op.size;
      bool write = (op.access & CS_AC_WRITE) || (move && i == 0);
      std::snprintf(f.access, sizeof f.access, "%s", write ? "write" : "read");
      break;
    }
  }
  cs_free(insn, n);
}

void onFault(int sig, siginfo_t* info, void* uctx) {
  DecodedFault f{};
  f.signal = sig;
  f.address = reinterpret_cast<uint64_t>(info->si_addr);
  f.pc = static_cast<uint64_t>(static_cast<ucontext_t*>(uctx)->uc_mcontext.gregs[REG_RIP]);
  decode(f.pc, f);
  if (gSink) gSink(f);
  _exit(3);
}

}  // namespace

void installFaultHandlers(FaultSink sink) {
  gSink = sink;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &gCapstone) == CS_ERR_OK) cs_option(gCapstone, CS_OPT_DETAIL, CS_OPT_ON);
  struct sigaction sa {};
  sa.sa_sigaction = onFault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(s, &sa, nullptr);
}

void installAltStack() {
  constexpr size_t kBytes = 256 * 1024;  // Capstone needs some room
  void* mem = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return;
  stack_t ss{};
  ss.ss_sp = mem;
  ss.ss_size = kBytes;
  sigaltstack(&ss, nullptr);
}

}  // namespace td::cpu
