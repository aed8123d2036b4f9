#include "driver/channel_protocol.h"

#include <fmt/format.h>

namespace td {
namespace {

const nlohmann::json& field(const nlohmann::json& m, const char* name, nlohmann::json::value_t type, const char* what) {
  auto it = m.find(name);
  if (it == m.end()) throw ChannelError(fmt::format("the launch request has no \"{}\"", name));
  bool ok = it->type() == type || (type == nlohmann::json::value_t::number_integer && it->is_number_unsigned());
  if (!ok) throw ChannelError(fmt::format("the launch request's \"{}\" is not {}", name, what));
  return *it;
}

int count(const nlohmann::json& m, const char* name, int least) {
  int v = field(m, name, nlohmann::json::value_t::number_integer, "an integer").get<int>();
  if (v < least) throw ChannelError(fmt::format("the launch request's \"{}\" is {}, below {}", name, v, least));
  return v;
}

std::string text(const nlohmann::json& m, const char* name) {
  return field(m, name, nlohmann::json::value_t::string, "a string").get<std::string>();
}

}  // namespace

LaunchRequest parseLaunchRequest(const nlohmann::json& m) {
  if (!m.is_object()) throw ChannelError("a channel message is a JSON object");
  auto version = m.find("protocol");
  if (version == m.end() || !version->is_number_integer())
    throw ChannelError(fmt::format("the capture names no channel protocol version; this tile-doctor speaks version "
                                   "{}: its tile_doctor_capture is older than the executable (install both from one "
                                   "release)",
                                   kChannelProtocol));
  if (version->get<long long>() != kChannelProtocol)
    throw ChannelError(fmt::format("the capture speaks channel protocol {}, this tile-doctor version {}: install the "
                                   "tile_doctor Python package and the executable from one release",
                                   version->get<long long>(), kChannelProtocol));
  if (std::string op = text(m, "op"); op != "launch") throw ChannelError(fmt::format("unknown channel request \"{}\"", op));
  LaunchRequest r;
  r.launch = count(m, "launch", 1);
  r.parts = count(m, "parts", 1);
  r.part = count(m, "part", 0);
  if (r.part >= r.parts) throw ChannelError(fmt::format("the launch request's part {} is not below its {} parts", r.part, r.parts));
  r.kernel = count(m, "kernel", 0);
  r.entry = text(m, "entry");
  r.bundle = text(m, "bundle");
  r.compiledAt = text(m, "compiled_at");
  r.calledAt = text(m, "called_at");
  r.key = text(m, "key");
  r.outputs = text(m, "outputs");
  r.shapes = field(m, "shapes", nlohmann::json::value_t::object, "an object");
  r.scalars = field(m, "scalars", nlohmann::json::value_t::object, "an object");
  for (const auto& u : field(m, "unresolved", nlohmann::json::value_t::array, "an array")) {
    if (!u.is_string()) throw ChannelError("the launch request's \"unresolved\" holds a name that is not a string");
    r.unresolved.push_back(u.get<std::string>());
  }
  return r;
}

nlohmann::json channelReply(bool ran, const std::string& message) {
  nlohmann::json reply = {{"protocol", kChannelProtocol}, {"ran", ran}};
  if (!message.empty()) reply["message"] = message;
  return reply;
}

}  // namespace td
