/// Turns of the bar and scroll steps, which a user or a bar can push arbitrarily far (`headlines
/// next 9223372036854775807`, a scroll-steps file that says anything): every value is clamped to
/// ±`limit` and every sum saturates there, far past any real use and far from Int's edge, so no
/// arithmetic on them can trap. Only a value modulo the headlines shown ever matters.
public enum StepCount {
    public static let limit = 1 << 40

    public static func clamped(_ n: Int) -> Int { min(max(n, -limit), limit) }

    public static func adding(_ a: Int, _ b: Int) -> Int { clamped(clamped(a) + clamped(b)) }
}
