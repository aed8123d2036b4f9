// The file system clang compiles a kernel through: the real one, but a file is opened only inside the
// given folders (frontend/read_roots.h says which and why); any other file is "not found" to clang (which
// then searches on, as for a file that is not there), so no byte of it reaches clang's diagnostics, and
// its path is added to `refused` for the error to explain. Existence and folder listings stay visible: the
// driver probes the toolchain's folders, and that a file exists is not its content.
#pragma once
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <memory>
#include <string>
#include <vector>

namespace td {

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> confinedFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real,
                                                                  std::vector<std::string> roots,
                                                                  std::shared_ptr<std::vector<std::string>> refused);

}  // namespace td
