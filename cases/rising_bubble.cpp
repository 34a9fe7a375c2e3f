#include "cases/rising_bubble.hpp"

namespace squall::cases {

std::unique_ptr<Case> make_rising_bubble(const Config& c) { return std::make_unique<RisingBubble>(c); }

}  // namespace squall::cases
