// The messages between the Python capture (python/tile_doctor_capture/channel.py) and tile-doctor while a
// script runs under `check kernel.py`: one JSON object per line over two pipes, a request per kernel launch
// and a reply to each. docs/capture-channel.md describes it, docs/capture-channel.schema.json is its schema.
// The capture and the binary may be installed apart (a pip package beside a built executable), so every
// message carries the protocol version and a mismatch is refused by name, not misread.
#pragma once
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace td {

constexpr int kChannelProtocol = 1;

// A request the protocol does not allow: the reply's message.
struct ChannelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// {"protocol": 1, "op": "launch", ...}: part `part` of `parts` device kernels of the script's launch number
// `launch` (1-based), compiled by the script's kernel `kernel`; its bundle, where the script compiled and
// called it, the call's tensor shapes and scalars, the key that says which launches are the same, the
// folder the outputs go back through, and the bundle's parameters no call gave.
struct LaunchRequest {
  int launch = 0, part = 0, parts = 1, kernel = 0;
  std::string entry, bundle, compiledAt, calledAt, key, outputs;
  nlohmann::json shapes = nlohmann::json::object(), scalars = nlohmann::json::object();
  std::vector<std::string> unresolved;
};

// Reads one request; throws ChannelError naming the field (or the version) that is wrong.
LaunchRequest parseLaunchRequest(const nlohmann::json& message);

// The reply: {"protocol": 1, "ran": true|false[, "message": why not]}.
nlohmann::json channelReply(bool ran, const std::string& message = "");

}  // namespace td
