#pragma once
/// Disk space around output writes. A full disk (or an exhausted quota) is the common
/// way an output write fails in a batch job; the writers check the free space before they
/// start (so that no library is left half-way through a file) and, when a write fails,
/// say whether a full disk is the cause.
#include <mpi.h>

#include <cstdint>
#include <string>

namespace squall::io {

/// Bytes available to this process on the file system holding `path` (a file or a
/// directory; a file that does not exist yet: its directory), or -1 when unknown.
long long free_bytes(const std::string& path);

/// Room for a file's header and HDF5's metadata, added to the values a write puts down
/// when its size is estimated for require_space.
inline constexpr std::uintmax_t metadata_room = std::uintmax_t(64) << 10;

/// Throws RunError("no space left on device: ...") naming `what`, the directory of `path`
/// and both sizes when the file system holding `path` has fewer than `bytes` free.
void require_space(const std::string& path, std::uintmax_t bytes, const std::string& what);

/// The same for a file all ranks of `comm` write: rank 0 checks, and all ranks throw
/// together (none goes on alone into the writers' collective calls).
void require_space(MPI_Comm comm, const std::string& path, std::uintmax_t bytes, const std::string& what);

/// The last step of a file all ranks of `comm` wrote as `tmp`: rank 0 renames it to
/// `path`; RunError on every rank when it cannot.
void rename_into_place(MPI_Comm comm, const std::string& tmp, const std::string& path);

/// The cause to append to the message of a failed write of `path`: " (no space left on
/// device: ...)" when `saved_errno` is ENOSPC or its file system has less than 1 MiB free,
/// the quota or the file size limit when `saved_errno` is EDQUOT or EFBIG, "" otherwise.
std::string full_disk_note(const std::string& path, int saved_errno = 0);

/// Ends the whole job (MPI_Abort, exit status 1) after a write into an HDF5 file failed
/// half-way: the library keeps the file it could not finish and cannot go on (its next
/// collective call waits for ever on the other ranks; its shutdown crashes). Removes
/// `partial` (the unfinished copy, if any) first and prints `message`.
[[noreturn]] void end_job_after_failed_write(const std::string& partial, const std::string& message);

/// `bytes` for a message: "812 kB", "3.4 MB", "2.1 GB".
std::string format_bytes(double bytes);

}  // namespace squall::io
