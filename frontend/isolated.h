// Work that may crash runs in a forked child: clang on a user's source (a crash, a stack overflow or a
// fatal error in it cannot take tile-doctor down) and LLVM's NVPTX back end. It also keeps the parent
// process free of the NVPTX target: clang optimises differently once that target is registered, and the
// NVPTX passes keep a per-module cache keyed by the module's address that outlives the module, so a later
// module at the same address looked like one without kernels. Registered only in children, neither can
// happen.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace td {

struct InputError;

// A child that died of a signal or ran past its time: what it was doing, and how it ended.
struct IsolatedFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
  int signal = 0;  // 0: it ran past its time
};

// Runs `work` in a forked child and returns the parts it returned. An InputError or other exception the
// child throws is thrown here again, with its file, line and message; a child that dies of a signal, or
// runs past `timeoutSeconds` (0: no limit; then it is killed), is an IsolatedFailure describing `what`.
// In the child of runIsolated only: ends it now with `e` as its answer (for a fatal-error handler of a
// library that would otherwise exit without one).
[[noreturn]] void answerFromIsolatedChild(const InputError& e);

std::vector<std::string> runIsolated(const std::string& what, double timeoutSeconds,
                                     const std::function<std::vector<std::string>()>& work);

}  // namespace td
