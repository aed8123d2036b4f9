#include "bisect/process_prober.h"

#include <chrono>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "bisect/probe_outcome.h"
#include "frontend/cache_files.h"
#include "frontend/lifetime.h"

namespace td::bisect {

namespace {

using Clock = std::chrono::steady_clock;

std::string readTail(const std::string& path, size_t max) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  return s.size() > max ? s.substr(s.size() - max) : s;
}

struct Child {
  pid_t pid = -1;
  size_t job = 0;
  Clock::time_point started;
  std::string report, log;
};

}  // namespace

std::vector<std::string> substituteAxes(const std::vector<std::string>& args, const std::vector<Axis>& axes,
                                        const Shape& shape) {
  std::vector<std::string> out = args;
  for (std::string& a : out)
    for (size_t i = 0; i < axes.size(); ++i) {
      std::string token = "{" + axes[i].name + "}", value = std::to_string(shape[i]);
      for (size_t at = a.find(token); at != std::string::npos; at = a.find(token, at + value.size()))
        a.replace(at, token.size(), value);
    }
  return out;
}

ProcessProber::ProcessProber(ProbeSetup setup, ProbeCache& cache, std::string inputIdentity)
    : setup_(std::move(setup)), cache_(cache), identity_(std::move(inputIdentity)) {}

std::vector<std::string> ProcessProber::command(const Shape& shape, const std::string& reportPath) const {
  std::vector<std::string> argv = {setup_.tool, "check", setup_.input};
  argv.insert(argv.end(), setup_.checkOptions.begin(), setup_.checkOptions.end());
  if (!setup_.script)
    for (size_t i = 0; i < setup_.axes.size(); ++i)
      argv.push_back(fmt::format("--param={}={}", setup_.axes[i].name, shape[i]));
  if (setup_.workerThreads > 0) argv.push_back(fmt::format("--jobs={}", setup_.workerThreads));
  argv.push_back("--format=json");
  if (!reportPath.empty()) argv.push_back("--out=" + reportPath);
  if (setup_.script) {
    argv.push_back("--");
    std::vector<std::string> args = substituteAxes(setup_.scriptArgs, setup_.axes, shape);
    argv.insert(argv.end(), args.begin(), args.end());
  }
  return argv;
}

std::string ProcessProber::keyOf(const Shape& shape) const {
  CacheKey key;
  key.add("bisect-probe/1").add(toolIdentity()).add(identity_).add(setup_.failOn.text());
  key.add(std::to_string(setup_.confirm));
  for (const std::string& a : command(shape, "")) key.add(a);
  return key.hex();
}

std::vector<ProbeOutcome> ProcessProber::probe(const std::vector<Shape>& shapes) {
  std::vector<ProbeOutcome> out(shapes.size());
  std::vector<Shape> todo;
  std::vector<size_t> where;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (std::optional<ProbeOutcome> hit = cache_.find(keyOf(shapes[i]))) {
      out[i] = *hit;
      if (onProgress) onProgress(shapes[i], &out[i]);
    } else {
      todo.push_back(shapes[i]);
      where.push_back(i);
    }
  }
  if (todo.empty()) return out;
  if (setup_.maxProbes > 0 && shapesRun_ + static_cast<int>(todo.size()) > setup_.maxProbes) {
    size_t allowed = static_cast<size_t>(std::max(0, setup_.maxProbes - shapesRun_));
    for (size_t k = allowed; k < todo.size(); ++k) {  // not run: the search stops there, resumable
      out[where[k]].verdict = Verdict::Error;
      out[where[k]].kind = "not-run";
      out[where[k]].message = "the --max-probes budget is spent";
    }
    todo.resize(allowed);
    where.resize(allowed);
    if (todo.empty()) return out;
  }
  shapesRun_ += static_cast<int>(todo.size());
  std::vector<ProbeOutcome> fresh = runOnce(todo);
  for (size_t k = 0; k < todo.size(); ++k) {
    out[where[k]] = fresh[k];
    if (fresh[k].verdict != Verdict::Error) {
      std::string shape;
      for (size_t i = 0; i < setup_.axes.size(); ++i) shape += fmt::format("{}{}={}", i ? "," : "", setup_.axes[i].name, todo[k][i]);
      if (!cache_.keep(keyOf(todo[k]), shape, fresh[k])) ++lost_;
    }
  }
  return out;
}

// Every shape `confirm` times, at most `parallel` processes at once; a shape fails when any of its runs fails.
std::vector<ProbeOutcome> ProcessProber::runOnce(const std::vector<Shape>& shapes) {
  TemporaryFolder folder("bisect");
  size_t jobs = shapes.size() * static_cast<size_t>(std::max(1, setup_.confirm));
  std::vector<ProbeOutcome> runs(jobs);
  std::vector<Child> live;
  size_t next = 0;
  while (next < jobs || !live.empty()) {
    while (next < jobs && live.size() < static_cast<size_t>(std::max(1, setup_.parallel))) {
      Child c;
      c.job = next++;
      c.report = fmt::format("{}/probe-{}.json", folder.path(), c.job);
      c.log = fmt::format("{}/probe-{}.log", folder.path(), c.job);
      const Shape& shape = shapes[c.job % shapes.size()];
      if (onProgress && c.job < shapes.size()) onProgress(shape, nullptr);
      c.started = Clock::now();
      // its own process group: the watchdog ends everything the probe started
      c.pid = spawnChildOfTool(command(shape, c.report), c.log, true);
      if (c.pid < 0) throw std::runtime_error("fork failed for a probe");
      live.push_back(c);
    }
    bool reaped = false;
    for (auto it = live.begin(); it != live.end();) {
      int status = 0;
      double seconds = std::chrono::duration<double>(Clock::now() - it->started).count();
      pid_t got = waitpid(it->pid, &status, WNOHANG);
      if (got == 0 && seconds < setup_.watchdogSeconds) {
        ++it;
        continue;
      }
      ProbeOutcome& o = runs[it->job];
      if (got == 0) {  // outlived the watchdog: the probe's whole process tree dies with it
        kill(-it->pid, SIGKILL);
        kill(it->pid, SIGKILL);
        waitpid(it->pid, &status, 0);
        o = judgeKilledProbe(seconds, setup_.failOn);
      } else {
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        nlohmann::json report;
        std::ifstream in(it->report);
        if (in) report = nlohmann::json::parse(in, nullptr, false);
        if (report.is_discarded()) report = nullptr;
        o = judgeProbe(report, code, readTail(it->log, 4000), setup_.failOn);
      }
      o.seconds = seconds;
      releaseChild(it->pid);
      it = live.erase(it);
      reaped = true;
    }
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Fold each shape's runs: the first failing run speaks for it, and the count says how often it failed.
  std::vector<ProbeOutcome> out(shapes.size());
  for (size_t s = 0; s < shapes.size(); ++s) {
    int failures = 0;
    double seconds = 0;
    const ProbeOutcome* speaker = nullptr;
    for (size_t r = s; r < jobs; r += shapes.size()) {
      const ProbeOutcome& o = runs[r];
      seconds += o.seconds;
      if (o.verdict == Verdict::Fail) ++failures;
      if (!speaker || (o.verdict != Verdict::Pass && speaker->verdict == Verdict::Pass) ||
          (o.verdict == Verdict::Error && speaker->verdict != Verdict::Error))
        speaker = &o;
    }
    out[s] = *speaker;
    out[s].runs = std::max(1, setup_.confirm);
    out[s].failures = failures;
    out[s].seconds = seconds;
    if (onProgress) onProgress(shapes[s], &out[s]);
  }
  return out;
}

}  // namespace td::bisect
