#include "bisect/search.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace td::bisect {

namespace {

struct Stopped {};  // a probe could not be judged: the search ends there

class Searcher {
 public:
  Searcher(const std::vector<Axis>& axes, Prober& prober, const SearchOptions& opts)
      : axes_(axes), prober_(prober), opts_(opts) {}

  SearchResult run() {
    try {
      explore();
    } catch (const Stopped&) {
    }
    return std::move(res_);
  }

 private:
  // Probes the shapes not known yet (together, where the prober runs several at once).
  void ensure(const std::vector<Shape>& shapes, const std::string& stage) {
    std::vector<Shape> todo;
    for (const Shape& s : shapes)
      if (!known_.count(s) && std::find(todo.begin(), todo.end(), s) == todo.end()) todo.push_back(s);
    if (todo.empty()) return;
    std::vector<ProbeOutcome> out = prober_.probe(todo);
    for (size_t i = 0; i < todo.size(); ++i) {
      known_[todo[i]] = res_.probes.size();
      res_.probes.push_back({todo[i], out[i], stage});
      if (counting_) ++counting_->probes;
    }
    for (size_t i = 0; i < todo.size(); ++i)
      if (out[i].verdict == Verdict::Error) {
        res_.stoppedBy = res_.probes[known_[todo[i]]];
        throw Stopped{};
      }
  }

  bool fails(const Shape& s, const std::string& stage) {
    ensure({s}, stage);
    return res_.probes[known_[s]].outcome.verdict == Verdict::Fail;
  }
  bool knownFails(const Shape& s) const { return res_.probes[known_.at(s)].outcome.verdict == Verdict::Fail; }

  Shape lowest() const {
    Shape s;
    for (const Axis& a : axes_) s.push_back(a.valueAt(0));
    return s;
  }
  Shape highest() const {
    Shape s;
    for (const Axis& a : axes_) s.push_back(a.valueAt(a.count() - 1));
    return s;
  }

  // The index of the first failing value in (pass, fail], both indices along axis i of `held`, knowing
  // `pass` passes and `fail` fails. Several probes a round where the prober runs them at once.
  int64_t bisectBracket(size_t i, const Shape& held, int64_t pass, int64_t fail, const std::string& stage) {
    const Axis& a = axes_[i];
    auto at = [&](int64_t k) { Shape s = held; s[i] = a.valueAt(k); return s; };
    int ways = std::max(1, prober_.parallel());
    while (fail - pass > 1) {
      if (opts_.onInterval) opts_.onInterval(fmt::format("{} in ({}, {}]", a.name, a.valueAt(pass), a.valueAt(fail)));
      std::vector<int64_t> points;
      for (int j = 1; j <= ways; ++j) {
        int64_t k = pass + (fail - pass) * j / (ways + 1);
        if (k > pass && k < fail && (points.empty() || points.back() != k)) points.push_back(k);
      }
      if (points.empty()) points.push_back(pass + (fail - pass) / 2);
      std::vector<Shape> shapes;
      for (int64_t k : points) shapes.push_back(at(k));
      ensure(shapes, stage);
      int64_t newFail = fail, newPass = pass;
      for (int64_t k : points)
        if (knownFails(at(k))) { newFail = k; break; }
      for (int64_t k : points)
        if (k < newFail && !knownFails(at(k))) newPass = std::max(newPass, k);
      pass = newPass;
      fail = newFail;
    }
    return fail;
  }

  // Failing values below passing ones along axis i of `held`, among every probe made on that line.
  void collectContradictions(AxisResult& r) const {
    std::vector<std::pair<int64_t, bool>> line;
    for (const ProbeRecord& p : res_.probes) {
      Shape other = p.shape;
      other[r.axis] = r.held[r.axis];
      if (other == r.held) line.push_back({p.shape[r.axis], p.outcome.verdict == Verdict::Fail});
    }
    std::sort(line.begin(), line.end());
    std::optional<int64_t> firstFail;
    for (const auto& [v, f] : line) {
      if (f && !firstFail) firstFail = v;
      if (!f && firstFail) r.contradictions.push_back({*firstFail, v});
    }
  }

  // Along axis i with the other axes as in `held`.
  AxisResult along(size_t i, Shape held) {
    const Axis& a = axes_[i];
    AxisResult r;
    r.axis = i;
    r.held = held;
    counting_ = &r;
    std::string stage = "axis " + a.name;
    auto at = [&](int64_t k) { Shape s = held; s[i] = a.valueAt(k); return s; };
    int64_t n = a.count();
    int64_t grow = n > 2 ? std::clamp<int64_t>(static_cast<int64_t>(std::ceil(std::sqrt(double(n - 1)))), 1, n - 2) : n - 1;
    if (prober_.parallel() >= 3) ensure({at(0), at(grow), at(n - 1)}, stage);  // growth at once
    int64_t pass = 0, fail = -1;
    if (fails(at(0), stage)) {
      r.kind = AxisResult::Kind::FailsAtLowest;
      r.firstFail = a.valueAt(0);
      fail = 0;
    } else {
      if (grow > 0 && fails(at(grow), stage)) fail = grow;
      else if (n > 1) {
        pass = std::max<int64_t>(grow, 0);
        if (pass < n - 1 && fails(at(n - 1), stage)) fail = n - 1;
      }
      if (fail < 0) {
        r.kind = AxisResult::Kind::NoFailure;
      } else {
        fail = bisectBracket(i, held, pass, fail, stage);
        r.kind = AxisResult::Kind::Threshold;
        r.firstFail = a.valueAt(fail);
        r.lastPass = a.valueAt(fail - 1);
      }
    }
    if (fail >= 0 && fail + 1 < n) fails(at(fail + 1), stage);  // confirms the failure holds above it
    if (r.kind == AxisResult::Kind::NoFailure)  // the values the search itself probed, all passing
      for (const ProbeRecord& p : res_.probes) {
        Shape other = p.shape;
        other[i] = held[i];
        if (other == held) r.probedPassing.push_back(p.shape[i]);
      }
    std::sort(r.probedPassing.begin(), r.probedPassing.end());
    if (opts_.scanResidues) scanResidues(r, fail >= 0 ? std::max<int64_t>(fail - 1, 0) : 0);
    counting_ = nullptr;
    collectContradictions(r);
    return r;
  }

  void scanResidues(AxisResult& r, int64_t start) {
    const Axis& a = axes_[r.axis];
    int64_t n = a.count();
    int64_t end = std::min<int64_t>(n, start + opts_.residueWindow);
    start = std::max<int64_t>(0, end - opts_.residueWindow);
    if (end - start < 4) return;  // too few values to see a period
    ResiduePattern pat;
    std::vector<Shape> shapes;
    for (int64_t k = start; k < end; ++k) {
      Shape s = r.held;
      s[r.axis] = a.valueAt(k);
      shapes.push_back(s);
      pat.values.push_back(a.valueAt(k));
    }
    ensure(shapes, "residues " + a.name);
    for (const Shape& s : shapes) pat.fails.push_back(knownFails(s));
    int64_t period = periodOf(pat.fails);
    if (period) {
      pat.modulus = period * a.align;
      for (size_t k = 0; k < static_cast<size_t>(period); ++k)
        if (pat.fails[k]) pat.residues.push_back(pat.values[k] % pat.modulus);
      std::sort(pat.residues.begin(), pat.residues.end());
    }
    r.residues = pat;
  }

  static int64_t product(const Shape& s) {
    double p = 1;
    for (int64_t v : s) p *= double(v);
    return static_cast<int64_t>(std::min(p, 9e18));
  }

  void explore() {
    Shape base = lowest();
    if (fails(base, "lowest")) {
      res_.lowestFails = true;
      res_.failing = base;
    }
    for (size_t i = 0; i < axes_.size(); ++i) res_.axes.push_back(along(i, base));
    if (res_.lowestFails) return;
    // The smallest failure of one axis alone: the others at their lowest values.
    for (const AxisResult& r : res_.axes) {
      if (r.kind != AxisResult::Kind::Threshold) continue;
      Shape f = base, p = base;
      f[r.axis] = r.firstFail;
      p[r.axis] = r.lastPass;
      if (!res_.failing || product(f) < product(*res_.failing)) {
        res_.failing = f;
        res_.passing = p;
        res_.decidedBy = axes_[r.axis].name;
      }
    }
    if (!res_.failing) failureInResidues();
    if (res_.failing || axes_.size() < 2) return;
    combination();
  }

  // Failures only the residue scan saw (between the values the search probed): the first of them, and the
  // value one step below when it passed.
  void failureInResidues() {
    for (const AxisResult& r : res_.axes) {
      if (!r.residues) continue;
      const ResiduePattern& p = *r.residues;
      for (size_t k = 0; k < p.values.size(); ++k)
        if (p.fails[k]) {
          Shape f = r.held;
          f[r.axis] = p.values[k];
          res_.failing = f;
          if (k > 0 && !p.fails[k - 1]) {
            Shape below = r.held;
            below[r.axis] = p.values[k - 1];
            res_.passing = below;
            res_.decidedBy = axes_[r.axis].name;
          }
          return;
        }
    }
  }

  // No axis fails alone: from the highest corner, lower each axis in turn to the least value that still fails.
  void combination() {
    Shape cur = highest();
    if (!fails(cur, "corner")) return;
    res_.combination = true;
    for (size_t i = 0; i < axes_.size(); ++i) {
      const Axis& a = axes_[i];
      int64_t top = (cur[i] - a.valueAt(0)) / a.align;
      Shape low = cur;
      low[i] = a.valueAt(0);
      if (top == 0 || fails(low, "combination")) {
        cur[i] = a.valueAt(0);
        continue;
      }
      int64_t k = bisectBracket(i, cur, 0, top, "combination");
      cur[i] = a.valueAt(k);
      Shape below = cur;
      below[i] = a.valueAt(k - 1);
      res_.passing = below;
      res_.decidedBy = a.name;
    }
    res_.failing = cur;
  }

  const std::vector<Axis>& axes_;
  Prober& prober_;
  SearchOptions opts_;
  SearchResult res_;
  std::map<Shape, size_t> known_;
  AxisResult* counting_ = nullptr;
};

}  // namespace

int64_t periodOf(const std::vector<bool>& fails) {
  if (std::all_of(fails.begin(), fails.end(), [&](bool f) { return f == fails[0]; })) return 0;
  for (size_t p = 2; p <= fails.size() / 2; ++p) {
    bool same = true;
    for (size_t j = 0; j + p < fails.size() && same; ++j) same = fails[j] == fails[j + p];
    if (same) return static_cast<int64_t>(p);
  }
  return 0;
}

bool SearchResult::monotone() const {
  for (const AxisResult& a : axes)
    if (!a.contradictions.empty() || (a.residues && a.residues->modulus)) return false;
  return true;
}

const ProbeRecord* SearchResult::record(const Shape& s) const {
  for (const ProbeRecord& p : probes)
    if (p.shape == s) return &p;
  return nullptr;
}

SearchResult search(const std::vector<Axis>& axes, Prober& prober, const SearchOptions& opts) {
  return Searcher(axes, prober, opts).run();
}

}  // namespace td::bisect
