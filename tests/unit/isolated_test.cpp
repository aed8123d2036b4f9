// Work run in a child process: answers, errors, crashes and hangs come back to the parent, which lives on.
#include <csignal>
#include <gtest/gtest.h>
#include <thread>

#include "frontend/input_error.h"
#include "frontend/isolated.h"

using namespace td;

TEST(IsolatedRun, PartsComeBackWhole) {
  std::string big(3 << 20, 'x');  // more than a pipe holds: the parent reads while the child writes
  auto parts = runIsolated("a test", 10, [&] { return std::vector<std::string>{"one", "", big}; });
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], "one");
  EXPECT_EQ(parts[1], "");
  EXPECT_EQ(parts[2], big);
}

TEST(IsolatedRun, ErrorsKeepTheirFileLineAndMessage) {
  try {
    runIsolated("a test", 10, []() -> std::vector<std::string> { throw InputError("k.cu", 7, "no such thing"); });
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file, "k.cu");
    EXPECT_EQ(e.line, 7);
    EXPECT_STREQ(e.what(), "no such thing");
  }
  EXPECT_THROW(runIsolated("a test", 10, []() -> std::vector<std::string> { throw std::runtime_error("x"); }),
               std::runtime_error);
}

TEST(IsolatedRun, ACrashOrAHangIsAFailureNotTheEnd) {
  try {
    runIsolated("crashing work", 10, []() -> std::vector<std::string> {
      std::raise(SIGSEGV);
      return {};
    });
    FAIL();
  } catch (const IsolatedFailure& e) {
    EXPECT_EQ(e.signal, SIGSEGV);
    EXPECT_NE(std::string(e.what()).find("crashing work crashed"), std::string::npos) << e.what();
  }
  auto t0 = std::chrono::steady_clock::now();
  try {
    runIsolated("endless work", 0.3, []() -> std::vector<std::string> {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    });
    FAIL();
  } catch (const IsolatedFailure& e) {
    EXPECT_EQ(e.signal, 0);
    EXPECT_NE(std::string(e.what()).find("ran past"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}
