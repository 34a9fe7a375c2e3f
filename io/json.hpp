#pragma once
/// A small JSON value with ordered object keys, enough for summary.json: numbers are
/// written with 17 significant digits (round-trip exact), non-finite numbers as null.
#include <string>
#include <utility>
#include <vector>

namespace squall::io {

class Json {
 public:
  Json() = default;  // null
  Json(double x) : kind_(Kind::number), number_(x) {}
  Json(int x) : kind_(Kind::integer), integer_(x) {}
  Json(long x) : kind_(Kind::integer), integer_(x) {}
  Json(long long x) : kind_(Kind::integer), integer_(x) {}
  Json(bool b) : kind_(Kind::boolean), boolean_(b) {}
  Json(const char* s) : kind_(Kind::string), string_(s) {}
  Json(std::string s) : kind_(Kind::string), string_(std::move(s)) {}

  static Json object() { Json j; j.kind_ = Kind::object; return j; }
  static Json array() { Json j; j.kind_ = Kind::array; return j; }
  /// JSON text written as it is (a value this class wrote before, read back from a file).
  static Json raw(std::string text) { Json j; j.kind_ = Kind::raw; j.string_ = std::move(text); return j; }

  /// Object: sets `key` (replacing an existing one, keeping its place).
  Json& set(const std::string& key, Json value);
  /// Array: appends.
  Json& push(Json value);

  std::string dump(int indent = 2) const;

 private:
  enum class Kind { null, number, integer, boolean, string, object, array, raw };
  void write(std::string& out, int indent, int depth) const;

  Kind kind_ = Kind::null;
  double number_ = 0;
  long long integer_ = 0;
  bool boolean_ = false;
  std::string string_;
  std::vector<std::pair<std::string, Json>> members_;  // object members or array items
};

/// Writes `text` to `path` atomically (a temporary file renamed into place); throws a
/// RunError naming the file and the system error on failure.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace squall::io
