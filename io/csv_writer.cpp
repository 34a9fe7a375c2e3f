#include "io/csv_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <utility>

#include "core/error.hpp"
#include "io/disk_space.hpp"

namespace squall::io {

namespace {

/// Writes all of `text` to `fd`; false (errno set) when it cannot.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, bool append)
    : path_(path), columns_(columns.size()) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
  if (fd_ < 0) throw RunError("cannot write '" + path + "': " + std::strerror(errno));
  if (append && ::lseek(fd_, 0, SEEK_END) > 0) return;  // the header is there
  std::string header;
  for (const auto& c : columns) header += (header.empty() ? "" : ",") + c;
  if (!write_all(fd_, header + "\n")) {
    const int saved_errno = errno;
    throw RunError("cannot write '" + path + "': " + std::strerror(saved_errno) + full_disk_note(path, saved_errno));
  }
}

CsvWriter::~CsvWriter() {
  if (fd_ >= 0) ::close(fd_);
}

CsvWriter::CsvWriter(CsvWriter&& other) noexcept { *this = std::move(other); }

CsvWriter& CsvWriter::operator=(CsvWriter&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    columns_ = other.columns_;
  }
  return *this;
}

void CsvWriter::row(const std::vector<double>& values) {
  if (fd_ < 0) return;
  std::string line;
  char number[32];
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::snprintf(number, sizeof number, i == 0 ? "%.17g" : ",%.17g", values[i]);
    line += number;
  }
  line += '\n';
  const off_t before = ::lseek(fd_, 0, SEEK_END);
  if (write_all(fd_, line)) return;
  const int saved_errno = errno;
  const bool cut = before >= 0 && ::ftruncate(fd_, before) == 0;  // whole rows only
  throw RunError("cannot write '" + path_ + "': " + std::strerror(saved_errno) + full_disk_note(path_, saved_errno) +
                 (cut ? "" : "; its last line may be incomplete"));
}

long truncate_csv_after(const std::string& path, double time) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return 0;
  std::string line, kept;
  long dropped = 0;
  bool header = true, later = false;
  while (std::getline(in, line)) {
    if (!header && !later) later = !(std::strtod(line.c_str(), nullptr) <= time);
    if (later)
      ++dropped;
    else
      kept += line + "\n";
    header = false;
  }
  if (in.bad()) throw RunError("cannot read '" + path + "'");
  if (dropped == 0) return 0;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << kept;
    out.flush();
    if (!out) {
      const int saved_errno = errno;
      out.close();
      std::remove(tmp.c_str());
      throw RunError("cannot write '" + tmp + "': " + std::strerror(saved_errno) + full_disk_note(path, saved_errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw RunError("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno));
  return dropped;
}

}  // namespace squall::io
