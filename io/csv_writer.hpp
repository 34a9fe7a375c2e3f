#pragma once
/// A CSV time series written row by row and flushed after every row, so a run that dies
/// keeps every row it reached. Only the rank that opens it writes.
#include <cstdio>
#include <string>
#include <vector>

namespace squall::io {

class CsvWriter {
 public:
  CsvWriter() = default;
  /// Creates `path` with the header line, or with `append` adds to an existing file
  /// (writing the header only if the file is new); RunError naming the file on failure.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns, bool append = false);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  CsvWriter(CsvWriter&& other) noexcept;
  CsvWriter& operator=(CsvWriter&& other) noexcept;

  bool is_open() const { return file_ != nullptr; }
  /// Appends one row (17 significant digits) and flushes it.
  void row(const std::vector<double>& values);

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::size_t columns_ = 0;
};

/// Keeps the header of the CSV file `path` and its rows up to the first whose first
/// column (the time) exceeds `time`; drops that row and all after it (rewriting the file
/// through a .tmp and a rename; untouched when nothing is dropped). Returns the number of
/// rows dropped; a missing file is left missing (0). RunError naming the file on failure.
long truncate_csv_after(const std::string& path, double time);

}  // namespace squall::io
