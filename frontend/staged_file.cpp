#include "frontend/staged_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "frontend/input_error.h"
#include "frontend/lifetime.h"

namespace td {

StagedFile::StagedFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)), staging_(stagingPath(path_)) {
  removeStaleStaging(path_);  // a run killed by SIGKILL could not remove its own
  std::error_code ec;
  std::filesystem::remove(staging_, ec);  // whatever is there, a link included, is not written through
  out_.open(staging_, std::ios::binary | std::ios::trunc);
  if (!out_) throw InputError(path_, 0, fmt::format("cannot write {}: {}", what_, std::strerror(errno)));
  adoptTemporary(staging_);
}

StagedFile::~StagedFile() {
  std::error_code ignored;
  if (!committed_) std::filesystem::remove(staging_, ignored);
  releaseTemporary(staging_);
}

void StagedFile::commit() {
  out_.close();
  std::error_code ec;
  if (!out_) ec = std::error_code(errno ? errno : EIO, std::generic_category());
  else std::filesystem::rename(staging_, path_, ec);
  if (ec) throw InputError(path_, 0, fmt::format("cannot write {}: {}", what_, ec.message()));
  committed_ = true;
}

}  // namespace td
