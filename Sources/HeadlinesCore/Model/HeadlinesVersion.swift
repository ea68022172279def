/// The version printed by `--version` and sent in the User-Agent.
public enum HeadlinesVersion {
    public static let string = "0.1.0"
}
