#include "io/csv_writer.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <utility>

#include "core/error.hpp"

namespace squall::io {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, bool append)
    : path_(path), columns_(columns.size()) {
  if (append) {
    file_ = std::fopen(path.c_str(), "a");
    if (!file_) throw RunError("cannot write '" + path + "': " + std::strerror(errno));
    if (std::ftell(file_) > 0) return;  // the header is there
  } else {
    file_ = std::fopen(path.c_str(), "w");
  }
  if (!file_) throw RunError("cannot write '" + path + "': " + std::strerror(errno));
  std::string header;
  for (const auto& c : columns) header += (header.empty() ? "" : ",") + c;
  std::fprintf(file_, "%s\n", header.c_str());
  std::fflush(file_);
}

CsvWriter::~CsvWriter() {
  if (file_) std::fclose(file_);
}

CsvWriter::CsvWriter(CsvWriter&& other) noexcept { *this = std::move(other); }

CsvWriter& CsvWriter::operator=(CsvWriter&& other) noexcept {
  if (this != &other) {
    if (file_) std::fclose(file_);
    path_ = std::move(other.path_);
    file_ = std::exchange(other.file_, nullptr);
    columns_ = other.columns_;
  }
  return *this;
}

void CsvWriter::row(const std::vector<double>& values) {
  if (!file_) return;
  for (std::size_t i = 0; i < values.size(); ++i)
    std::fprintf(file_, i == 0 ? "%.17g" : ",%.17g", values[i]);
  std::fputc('\n', file_);
  if (std::fflush(file_) != 0 || std::ferror(file_))
    throw RunError("cannot write '" + path_ + "': " + std::strerror(errno));
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
    if (!out) throw RunError("cannot write '" + tmp + "': " + std::strerror(errno));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw RunError("cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno));
  return dropped;
}

}  // namespace squall::io
