// A kernel the chosen executor cannot run — an inline-PTX statement or an intrinsic the CPU executor does
// not emulate. Not bad input (exit 2): the kernel may well be right; this executor lacks a piece of it.
// Reported with exit 6, where the statement is (the kernel's line, the header function it came from,
// the script line) and which executor can run it.
#pragma once
#include <stdexcept>
#include <string>

#include "frontend/manifest.h"
#include "model/site_table.h"

namespace td {

constexpr int kExitExecutorCannotRun = 6;

struct ExecutorCannotRun : std::runtime_error {
  ExecutorCannotRun(SourceLoc where, const std::string& what) : std::runtime_error(what), loc(std::move(where)) {}
  SourceLoc loc;  // the kernel's line; `helper` names the header function, `python` the script line
  // "kernel.cu:27 (inside __half2float at cuda_fp16.hpp:480) from script.py:14"
  std::string where() const {
    std::string w = loc.line ? loc.file + ":" + std::to_string(loc.line) : loc.file;
    if (!loc.helper.empty()) w += " (inside " + loc.helper + ")";
    if (!loc.python.empty()) w += " from " + loc.python;
    return w;
  }
};

// A limit of the executor met before any line of the kernel is to blame: named at the bundle and its entry.
inline ExecutorCannotRun cannotRunHere(const Bundle& b, const std::string& why) {
  return ExecutorCannotRun(SourceLoc{b.manifestPath, 0, 0, b.entry}, why);
}

}  // namespace td
