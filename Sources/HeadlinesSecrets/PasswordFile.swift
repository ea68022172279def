import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// `[source] password-file`: a file of the user's holding the password on its first line. It
/// must be theirs alone: a regular file (opened without following a link, so nobody swaps one
/// in), owned by them, with no permission for group or others. Read bounded, never shown.
enum PasswordFile {
    static let limit = 4096

    /// `path` as the config has it (`~/` is the home folder of `environment`).
    static func read(_ path: String, environment: [String: String]) -> Result<String, Failure> {
        let full = path.hasPrefix("~/") ? (environment["HOME"] ?? "") + path.dropFirst(1) : path
        let fd: Int32
        do { fd = try RuntimeFolder.openPrivate(full, flags: O_RDONLY) } catch let refusal as RuntimeFolderRefusal {
            switch refusal.problem {
            case .symbolicLink: return .failure(Failure(path: path, problem: .symbolicLink))
            case .wrongKind: return .failure(Failure(path: path, problem: .notAFile(kind: kind(of: full))))
            case let .ownedBy(uid): return .failure(Failure(path: path, problem: .ownedBy(uid: uid)))
            case let .openToOthers(mode): return .failure(Failure(path: path, problem: .openToOthers(mode: mode)))
            }
        } catch let error as SystemError where error.errno == ENOENT {
            return .failure(Failure(path: path, problem: .missing))
        } catch {
            return .failure(Failure(path: path, problem: .unreadable(errno: (error as? SystemError)?.errno ?? EIO)))
        }
        defer { close(fd) }
        // openPrivate refuses only what others may write; a password also must not be readable.
        var st = stat()
        if fstat(fd, &st) == 0, st.st_mode & 0o077 != 0 {
            return .failure(Failure(path: path, problem: .openToOthers(mode: UInt32(st.st_mode & 0o7777))))
        }
        let bytes: Data
        do { bytes = try PosixFileSystem.readAll(fd, path: full, limit: limit) } catch is StateFileTooLarge {
            return .failure(Failure(path: path, problem: .tooLong))
        } catch {
            return .failure(Failure(path: path, problem: .unreadable(errno: (error as? SystemError)?.errno ?? EIO)))
        }
        guard let password = PasswordText.firstLine(Array(bytes)) else { return .failure(Failure(path: path, problem: .empty)) }
        return .success(password)
    }

    /// "a FIFO", "a folder" ...: for the sentence only, after the descriptor refused it.
    private static func kind(of path: String) -> String {
        var st = stat()
        guard lstat(path, &st) == 0 else { return "not a regular file" }
        return NotARegularFile(path: path, mode: UInt32(st.st_mode)).kind
    }

    struct Failure: Error, Equatable {
        enum Problem: Equatable {
            case missing, symbolicLink, notAFile(kind: String), ownedBy(uid: UInt32), openToOthers(mode: UInt32)
            case tooLong, empty, unreadable(errno: Int32)
        }
        var path: String
        var problem: Problem

        /// A clause for `SyncPasswordProblem`, with what to do.
        var clause: String {
            let file = "password-file \(path)"
            switch problem {
            case .missing: return "\(file) does not exist"
            case .symbolicLink: return "\(file) is a symbolic link, which is not followed for a password: name the file itself"
            case let .notAFile(kind): return "\(file) is \(kind), not a regular file"
            case let .ownedBy(uid): return "\(file) is owned by uid \(uid), not you"
            case let .openToOthers(mode):
                return "\(file) is not private (mode 0\(String(mode, radix: 8))): run chmod 600 \(path)"
            case .tooLong: return "\(file) is longer than \(limit / 1024) KiB: put only the password in it"
            case .empty: return "\(file) has no password on its first line"
            case let .unreadable(code): return "\(file) cannot be read (\(String(cString: strerror(code))))"
            }
        }
    }
}
