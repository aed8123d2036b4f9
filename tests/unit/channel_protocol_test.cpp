// The capture channel's requests as tile-doctor reads them (driver/channel_protocol.h): a request in the
// current protocol is taken field for field; one of another version, or missing or mistyping a field, is
// refused with a message that names what is wrong (the script's launch then fails with it).
#include <gtest/gtest.h>

#include "driver/channel_protocol.h"

namespace {

nlohmann::json request() {
  return {{"protocol", td::kChannelProtocol}, {"op", "launch"}, {"launch", 3}, {"part", 1}, {"parts", 2},
          {"kernel", 0}, {"entry", "main_kernel_1"}, {"bundle", "/k/launch3_1/bundle.toml"},
          {"compiled_at", "kernel.py:12"}, {"called_at", "kernel.py:40"}, {"shapes", {{"A", "float16[64, 64]"}}},
          {"scalars", {{"n", "64"}}}, {"key", "('abc', ...)"}, {"outputs", "/k/launch3_1/outputs"},
          {"unresolved", {"N"}}};
}

std::string refusal(const nlohmann::json& m) {
  try {
    td::parseLaunchRequest(m);
  } catch (const td::ChannelError& e) {
    return e.what();
  }
  return "";
}

TEST(ChannelProtocol, ARequestIsTakenFieldForField) {
  td::LaunchRequest r = td::parseLaunchRequest(request());
  EXPECT_EQ(r.launch, 3);
  EXPECT_EQ(r.part, 1);
  EXPECT_EQ(r.parts, 2);
  EXPECT_EQ(r.entry, "main_kernel_1");
  EXPECT_EQ(r.calledAt, "kernel.py:40");
  EXPECT_EQ(r.shapes["A"], "float16[64, 64]");
  EXPECT_EQ(r.outputs, "/k/launch3_1/outputs");
  EXPECT_EQ(r.unresolved, std::vector<std::string>{"N"});
  nlohmann::json reply = td::channelReply(false, "why");
  EXPECT_EQ(reply, (nlohmann::json{{"protocol", td::kChannelProtocol}, {"ran", false}, {"message", "why"}}));
}

TEST(ChannelProtocol, AnotherVersionIsRefusedWithBothNamed) {
  nlohmann::json m = request();
  m["protocol"] = 2;
  EXPECT_NE(refusal(m).find("channel protocol 2, this tile-doctor version 1"), std::string::npos) << refusal(m);
  m.erase("protocol");
  EXPECT_NE(refusal(m).find("names no channel protocol version"), std::string::npos) << refusal(m);
}

TEST(ChannelProtocol, AMissingOrMistypedFieldIsNamed) {
  for (const char* name : {"launch", "part", "parts", "kernel", "entry", "bundle", "compiled_at", "called_at", "shapes",
                           "scalars", "key", "outputs", "unresolved"}) {
    nlohmann::json m = request();
    m.erase(name);
    EXPECT_EQ(refusal(m), std::string("the launch request has no \"") + name + "\"");
  }
  nlohmann::json m = request();
  m["launch"] = "3";
  EXPECT_EQ(refusal(m), "the launch request's \"launch\" is not an integer");
  m = request();
  m["launch"] = 0;
  EXPECT_EQ(refusal(m), "the launch request's \"launch\" is 0, below 1");
  m = request();
  m["part"] = 2;
  EXPECT_EQ(refusal(m), "the launch request's part 2 is not below its 2 parts");
  m = request();
  m["op"] = "compile";
  EXPECT_EQ(refusal(m), "unknown channel request \"compile\"");
  m = request();
  m["unresolved"] = {1};
  EXPECT_EQ(refusal(m), "the launch request's \"unresolved\" holds a name that is not a string");
  EXPECT_EQ(refusal(nlohmann::json::array()), "a channel message is a JSON object");
}

}  // namespace
