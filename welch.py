import math, mpmath, statistics, sys

def tcdf(t, df):  # P(T <= t): 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2 for t > 0
    tail = 0.5 * mpmath.betainc(df / 2, 0.5, 0, df / (df + t * t), regularized=True)
    return 1 - tail if t > 0 else tail

def tq(p, df):
    return float(mpmath.findroot(lambda t: tcdf(t, df) - p, 1.5))

# Student t table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2): 6 df, 0.95: 1.943
assert abs(tq(0.95, 6) - 1.943) < 5e-4 and abs(tq(0.975, 6) - 2.447) < 5e-4

def welch(a, b, alpha):
    """gain interval [lo, hi] of b against a, lower is better; and p"""
    ma, mb = statistics.mean(a), statistics.mean(b)
    sa, sb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    se = math.sqrt(sa + sb)
    df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1))
    q, d = tq(1 - alpha / 2, df), mb - ma
    p = 2 * (1 - float(tcdf(abs(d) / se, df)))
    return -100 * (d + q * se) / ma, -100 * (d - q * se) / ma, p

def values(path):
    return [float(l.split()[1]) for l in open(path) if l.strip()]
