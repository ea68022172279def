/// The version every program prints for `--version` (the static headlines-bar too) and sends in
/// the User-Agent. The man pages and the Debian changelog name it as well.
public enum HeadlinesVersion {
    public static let string = "0.1.0"
}
