#include "core/log.hpp"

#include <cstdio>

namespace squall::log {
namespace {
int g_rank = 0;
bool g_quiet = false;
std::string g_tag;

void emit(std::FILE* stream, const char* prefix, const std::string& message) {
  if (g_rank != 0) return;
  std::fprintf(stream, "%s%s%s\n", g_tag.c_str(), prefix, message.c_str());
  std::fflush(stream);
}
}  // namespace

void set_rank(int rank) { g_rank = rank; }
void set_quiet(bool quiet) { g_quiet = quiet; }
void set_tag(const std::string& tag) { g_tag = tag; }

void info(const std::string& message) {
  if (!g_quiet) emit(stdout, "", message);
}
void warn(const std::string& message) { emit(stderr, "squall: warning: ", message); }
void error(const std::string& message) { emit(stderr, "squall: error: ", message); }

}  // namespace squall::log
