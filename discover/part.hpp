// A piece of a discovered topology: devices and links in order, the sources of their
// facts, and the notes saying what is left to set. Pieces are built on their own (the
// host, the PCIe tree, NVLink) and joined in that order.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace iowall::discover {

struct Part {
  nlohmann::json devices = nlohmann::json::array(), links = nlohmann::json::array();
  std::vector<std::string> sources, notes;

  // A note on a device: in its description (what the topology file shows) and in the list.
  void describe(nlohmann::json& device, const std::string& text) {
    const std::string id = device["id"];
    device["description"] = device.contains("description")
                                ? device["description"].get<std::string>() + "; " + text
                                : "note: " + text;
    notes.push_back(id + ": " + text);
  }
};

}  // namespace iowall::discover
