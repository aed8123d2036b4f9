// What the exception being handled means for the run: its exit code (docs/exit-codes), its kind in a stop
// report, and where it happened. One mapping for every place that ends a run or one input of many on an
// exception (runWritingStops, check's many inputs, main).
#pragma once
#include <string>

namespace td::cli {

struct Stop {
  int code = 4;
  std::string kind = "internal";  // cannot-run, bad-input, timeout, internal
  std::string file;                // for the stop report
  int line = 0;
  std::string where;               // for people: the richest place known
  std::string message;
};

// Call inside a catch block. `input`: what a timeout is reported against (it carries no place of its own).
Stop stopOfCurrentException(const std::string& input);

}  // namespace td::cli
