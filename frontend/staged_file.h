// A file written beside its final name and renamed into place (reports, .npy arrays, cache entries): a
// run that fails, a full disk or a signal never leaves a truncated file at the name, a run beside another
// never a mixed one, and a link planted at the name is replaced, its target never written. The staging
// name is frontend/lifetime's stagingPath (removed on a termination signal; a SIGKILLed run's by the next).
#pragma once
#include <fstream>
#include <string>

namespace td {

class StagedFile {
 public:
  // `what` names it in errors ("the report"): InputError(path, "cannot write `what`: why").
  StagedFile(std::string path, std::string what);
  ~StagedFile();                          // removes the staging file unless committed
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  std::ofstream& out() { return out_; }
  void commit();  // closes and renames into place; InputError when either fails

 private:
  std::string path_, what_, staging_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace td
