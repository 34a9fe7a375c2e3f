#pragma once
/// What the solver needs to know of a case. Cases (cases/) register themselves in an
/// explicit list; the solver depends only on this description.
#include <string>

namespace squall {

struct CaseInfo {
  std::string name;
  std::string description;  ///< one line, shown by `squall cases`
};

}  // namespace squall
