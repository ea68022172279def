import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib

/// `[source] password-command`: a program whose standard output is the password (`pass show
/// freshrss`, `secret-tool lookup ...`, `gpg -dq ~/.freshrss.gpg`), run without a shell, with
/// stdin and stderr on /dev/null and an environment without API keys. Its output is read once
/// and never shown: a failure names the program and how it ended, nothing it printed.
enum PasswordCommand {
    /// Long enough for gpg-agent's pinentry to ask for a passphrase and be answered.
    static let timeout: Swift.Duration = .seconds(30)
    /// Far above any password; more is not one.
    static let outputLimit = 4096

    static func run(_ argv: [String], environment: [String: String], timeout: Swift.Duration = timeout) -> Result<String, Failure> {
        let name = argv.first ?? ""
        let outcome: (end: ProcessLauncher.BoundedEnd, output: [UInt8])
        do {
            outcome = try ProcessLauncher.runBounded(argv, environment: ProcessLauncher.userEnvironment(environment),
                                                     timeout: timeout, outputLimit: outputLimit)
        } catch {
            return .failure(Failure(program: name, problem: .notStarted(error.message)))
        }
        switch outcome.end {
        case .timedOut: return .failure(Failure(program: name, problem: .timedOut(timeout)))
        case .tooLong: return .failure(Failure(program: name, problem: .tooLong))
        case let .exited(.signal(number)): return .failure(Failure(program: name, problem: .killed(signal: number)))
        case let .exited(.status(status)) where status != 0: return .failure(Failure(program: name, problem: .exited(status: status)))
        case .exited:
            guard let password = PasswordText.firstLine(outcome.output) else {
                return .failure(Failure(program: name, problem: outcome.output.isEmpty ? .printedNothing : .emptyFirstLine))
            }
            return .success(password)
        }
    }

    struct Failure: Error, Equatable {
        enum Problem: Equatable {
            case notStarted(String), timedOut(Swift.Duration), tooLong, killed(signal: Int32), exited(status: Int32)
            case printedNothing, emptyFirstLine
        }
        var program: String
        var problem: Problem

        /// A clause for `SyncPasswordProblem`: the program's name and how it ended.
        var clause: String {
            let command = "password-command `\(program)`"
            switch problem {
            case let .notStarted(reason): return "\(command) could not be started (\(NewsError.clause(reason)))"
            case let .timedOut(limit): return "\(command) did not finish within \(limit.components.seconds) s"
            case .tooLong: return "\(command) printed more than \(outputLimit / 1024) KiB, which is not a password"
            case let .killed(signal): return "\(command) was killed by signal \(signal)"
            case let .exited(status): return "\(command) exited with status \(status)"
            case .printedNothing: return "\(command) printed nothing"
            case .emptyFirstLine: return "\(command) printed an empty first line, where the password goes"
            }
        }
    }
}

/// What a password source gave (a command, a file, `headlines login`'s input), as a password.
public enum PasswordText {
    /// Its first line without the line ending (`pass show` prints the password first, then
    /// other fields); nil when that line is empty.
    public static func firstLine(_ bytes: [UInt8]) -> String? {
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}
