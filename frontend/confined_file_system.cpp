#include "frontend/confined_file_system.h"

#include "frontend/read_roots.h"

namespace td {

namespace {

class ConfinedFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  ConfinedFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real, std::vector<std::string> roots,
                     std::shared_ptr<std::vector<std::string>> refused)
      : ProxyFileSystem(std::move(real)), roots_(std::move(roots)), refused_(std::move(refused)) {}

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    llvm::SmallString<256> absolute;
    path.toVector(absolute);
    auto notFound = std::make_error_code(std::errc::no_such_file_or_directory);
    if (getUnderlyingFS().makeAbsolute(absolute)) return notFound;
    if (insideAnyRoot(std::string(absolute), roots_)) return ProxyFileSystem::openFileForRead(path);
    if (getUnderlyingFS().exists(absolute) && refused_) refused_->push_back(std::string(absolute));
    return notFound;
  }

 private:
  std::vector<std::string> roots_;
  std::shared_ptr<std::vector<std::string>> refused_;
};

}  // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> confinedFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real,
                                                                  std::vector<std::string> roots,
                                                                  std::shared_ptr<std::vector<std::string>> refused) {
  for (std::string& r : roots) r = resolvedPath(r);
  return llvm::makeIntrusiveRefCnt<ConfinedFileSystem>(std::move(real), std::move(roots), std::move(refused));
}

}  // namespace td
