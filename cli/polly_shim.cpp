// Static build only: Debian's clang and LLVM archives were built with Polly linked into the tools and
// call getPollyPluginInfo() when setting up optimisation pipelines. tile-doctor does not ship Polly,
// so the extension registers nothing.
#include <llvm/Passes/PassPlugin.h>

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly (not included)", "0", [](llvm::PassBuilder&) {}};
}
