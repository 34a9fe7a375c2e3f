#include "io/json.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"

namespace squall::io {
namespace {

void escape(std::string& out, const std::string& s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

}  // namespace

Json& Json::set(const std::string& key, Json value) {
  kind_ = Kind::object;
  for (auto& member : members_)
    if (member.first == key) {
      member.second = std::move(value);
      return *this;
    }
  members_.emplace_back(key, std::move(value));
  return *this;
}

Json& Json::push(Json value) {
  kind_ = Kind::array;
  members_.emplace_back(std::string(), std::move(value));
  return *this;
}

std::string Json::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  out += '\n';
  return out;
}

void Json::write(std::string& out, int indent, int depth) const {
  switch (kind_) {
    case Kind::null: out += "null"; return;
    case Kind::boolean: out += boolean_ ? "true" : "false"; return;
    case Kind::integer: out += std::to_string(integer_); return;
    case Kind::string: escape(out, string_); return;
    case Kind::raw: {
      const auto end = string_.find_last_not_of(" \n\r\t");
      out += end == std::string::npos ? std::string("null") : string_.substr(0, end + 1);
      return;
    }
    case Kind::number: {
      if (!std::isfinite(number_)) { out += "null"; return; }
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", number_);
      out += buf;
      return;
    }
    case Kind::object:
    case Kind::array: {
      const bool object = kind_ == Kind::object;
      const bool flat = !object && [&] {  // short arrays of scalars stay on one line
        for (const auto& m : members_)
          if (m.second.kind_ == Kind::object || m.second.kind_ == Kind::array || m.second.kind_ == Kind::raw)
            return false;
        return members_.size() <= 8;
      }();
      out += object ? '{' : '[';
      const std::string pad(static_cast<size_t>(indent * (depth + 1)), ' ');
      for (size_t i = 0; i < members_.size(); ++i) {
        if (i > 0) out += ',';
        if (flat) {
          if (i > 0) out += ' ';
        } else {
          out += '\n' + pad;
        }
        if (object) {
          escape(out, members_[i].first);
          out += ": ";
        }
        members_[i].second.write(out, indent, depth + 1);
      }
      if (!flat && !members_.empty())
        out += '\n' + std::string(static_cast<size_t>(indent * depth), ' ');
      out += object ? '}' : ']';
      return;
    }
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw RunError("cannot write '" + tmp + "': " + std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int saved = errno;
  if (std::fclose(f) != 0 || !written) {
    std::remove(tmp.c_str());
    throw RunError("cannot write '" + tmp + "': " + std::strerror(written ? errno : saved));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw RunError("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(e));
  }
}

}  // namespace squall::io
