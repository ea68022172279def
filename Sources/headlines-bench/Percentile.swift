/// Nearest-rank percentile of samples: the smallest sample with at least `p`% of samples at or
/// below it. No interpolation, so every figure printed is a time that was actually measured.
func percentile(_ p: Double, of samples: [Double]) -> Double {
    precondition(!samples.isEmpty && p > 0 && p <= 100)
    let sorted = samples.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[max(rank, 1) - 1]
}
