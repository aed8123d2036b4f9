// Faults inside a kernel on the CPU executor: SIGSEGV/SIGBUS/SIGFPE/SIGILL handlers on an alternate
// stack that decode the faulting host instruction with Capstone (read/write, width, address) and hand
// the description to a callback, which records it where the parent process can read it.
#pragma once
#include <cstdint>
#include <ucontext.h>

namespace td::cpu {

struct DecodedFault {
  int signal;
  uint64_t address, pc;
  char instruction[96];
  char access[8];
  unsigned width;
};

using FaultSink = void (*)(const DecodedFault&);

void installFaultHandlers(FaultSink sink);  // process-wide; once per child
void installAltStack();                     // per thread that runs kernel code

}  // namespace td::cpu
