// A bare component for engine tests: something for servers and timelines to belong to.
#pragma once
#include "sim/core/component.hpp"

namespace iowall::testing {

struct Owner : Component {
  using Component::Component;
};

}  // namespace iowall::testing
