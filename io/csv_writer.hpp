#pragma once
/// A CSV time series written row by row, each row written through to the file, so a run
/// that dies keeps every row it reached, and a row that cannot be written whole (a full
/// disk) is not written at all. Only the rank that opens it writes.
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

  bool is_open() const { return fd_ >= 0; }
  /// Appends one row (17 significant digits). On failure the file is cut back to the rows
  /// before it, and RunError names the file and the cause.
  void row(const std::vector<double>& values);

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t columns_ = 0;
};

/// Keeps the header of the CSV file `path` and its rows up to the first whose first
/// column (the time) exceeds `time`; drops that row and all after it (rewriting the file
/// through a .tmp and a rename; untouched when nothing is dropped). Returns the number of
/// rows dropped; a missing file is left missing (0). RunError naming the file on failure.
long truncate_csv_after(const std::string& path, double time);

}  // namespace squall::io
