#include "cli/stop_of.h"

#include <exception>
#include <filesystem>

#include "frontend/input_error.h"
#include "frontend/work_deadline.h"
#include "runtime/executor_limit.h"

namespace td::cli {

Stop stopOfCurrentException(const std::string& input) {
  try {
    throw;
  } catch (const ExecutorCannotRun& e) {
    return {kExitExecutorCannotRun, "cannot-run", e.loc.file, static_cast<int>(e.loc.line), e.where(), e.what()};
  } catch (const InputError& e) {
    return {2, "bad-input", e.file, e.line, e.where(), e.what()};
  } catch (const WorkTimedOut& e) {
    return {3, "timeout", input, 0, input, e.what()};
  } catch (const std::filesystem::filesystem_error& e) {  // a path the user gave: a loop, no permission
    return {2, "bad-input", e.path1().string(), 0, e.path1().string(), e.code().message()};
  } catch (const std::exception& e) {
    return {4, "internal", "", 0, "", e.what()};
  } catch (...) {
    return {4, "internal", "", 0, "", "an exception that is not a std::exception"};
  }
}

}  // namespace td::cli
