// Output on a full disk: the space check before a write, the cause named after a failed
// one, and diagnostics.csv keeping whole rows when a row cannot be written.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/csv_writer.hpp"
#include "io/disk_space.hpp"

using namespace squall;

namespace {

std::string scratch_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("squall_disk_space_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace

TEST_CASE("sizes are written for people", "[io]") {
  CHECK(io::format_bytes(812) == "812 bytes");
  CHECK(io::format_bytes(81200) == "81.2 kB");
  CHECK(io::format_bytes(3.4e6) == "3.4 MB");
  CHECK(io::format_bytes(2.1e9) == "2.1 GB");
}

TEST_CASE("a write the disk cannot hold is refused before it starts", "[io]") {
  const std::string dir = scratch_dir();
  const long long available = io::free_bytes(dir);
  REQUIRE(available > 0);
  CHECK_NOTHROW(io::require_space(dir + "/fields.nc", 1, "'fields.nc'"));
  try {
    io::require_space(dir + "/fields.nc", std::uintmax_t(available) * 4 + (1u << 30), "'fields.nc'");
    FAIL("no error");
  } catch (const RunError& e) {
    const std::string m = e.what();
    CHECK(m.find("no space left on device: writing 'fields.nc' needs about") != std::string::npos);
    CHECK(m.find("'" + dir + "' has") != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a failed write names its cause", "[io]") {
  const std::string dir = scratch_dir();
  CHECK(io::full_disk_note(dir + "/a.nc", ENOSPC).find("no space left on device: '" + dir + "' has") !=
        std::string::npos);
  CHECK(io::full_disk_note(dir + "/a.nc", EDQUOT).find("disk quota exceeded") != std::string::npos);
  CHECK(io::full_disk_note(dir + "/a.nc", EFBIG).find("ulimit -f") != std::string::npos);
  if (io::free_bytes(dir) > (1 << 20)) CHECK(io::full_disk_note(dir + "/a.nc", EIO).empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("diagnostics.csv keeps whole rows when a row cannot be written", "[io]") {
  const std::string dir = scratch_dir(), path = dir + "/diagnostics.csv";
  // A file size limit makes the writes fail part-way through a row, as a full disk does.
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
  std::string message;
  int written = 0;
  {
    io::CsvWriter csv(path, {"time", "mass", "energy"}, false);
    rlimit limited = old;
    limited.rlim_cur = 1000;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &limited) == 0);
    try {
      for (; written < 100; ++written) csv.row({written * 0.1, 1.0 / 3.0, 2.0 / 7.0});
    } catch (const RunError& e) {
      message = e.what();
    }
    REQUIRE(setrlimit(RLIMIT_FSIZE, &old) == 0);
  }
  std::signal(SIGXFSZ, SIG_DFL);
  CHECK(written > 2);
  CHECK(written < 100);
  CHECK(message.find("cannot write '" + path + "'") != std::string::npos);
  CHECK(message.find("ulimit -f") != std::string::npos);
  CHECK(message.find("incomplete") == std::string::npos);
  std::ifstream in(path);
  std::string line, all;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    CHECK(std::count(line.begin(), line.end(), ',') == 2);
  }
  CHECK(lines == written + 1);  // the header and every row written before the failure
  CHECK(std::filesystem::file_size(path) <= 1000);
  std::filesystem::remove_all(dir);
}
