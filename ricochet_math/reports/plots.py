"""The report's plots.  Each draws into a box of a matplotlib figure, given in inches as
``(x0, y0, width, height)``, so the same function draws the HTML's SVG and a place on a PDF page.

Fractions are shown as percentages.  The publisher's RTP range and fold
frequencies drawn for comparison are those of
:data:`ricochet_math.reports.published.PUBLISHED`.
"""
from __future__ import annotations

import numpy as np
from matplotlib import colormaps
from matplotlib.ticker import FuncFormatter, PercentFormatter

from ricochet_math.reports.published import PUBLISHED
from ricochet_math.solvers.stats import z_value

__all__ = ["axes_in", "plot_by_players", "plot_threshold", "plot_distribution", "plot_band", "plot_strategy",
           "percent_ticks", "fit_limits", "log_percent"]

_PUBLISHED = {figure: value for figure, _, value, _ in PUBLISHED}


def axes_in(fig, box, left=0.6, right=0.15, bottom=0.5, top=0.35):
    """An axes inside ``box`` = (x0, y0, width, height) inches of ``fig``, with ``left``/``right``/``bottom``/
    ``top`` inches kept for the labels (every report's plots, the games' too)."""
    W, H = fig.get_size_inches()
    x0, y0, w, h = box
    return fig.add_axes(((x0 + left) / W, (y0 + bottom) / H, (w - left - right) / W, (h - bottom - top) / H))


def log_percent(value: float, _pos=None) -> str:
    """A fraction as a percent tick of a log axis, with the decimals its size needs: 1e-6 -> '0.0001%',
    0.05 -> '5%' (a fixed number of decimals printed '0.000%' for the first tick, issue 36)."""
    if value <= 0:
        return ""
    pct = 100.0 * value
    decimals = max(0, -int(np.floor(np.log10(pct) + 1e-9)))
    return f"{pct:.{decimals}f}%"


def percent_ticks(axis, log: bool = False) -> None:
    """Percent tick labels on ``axis`` (``ax.xaxis`` / ``ax.yaxis``) of fractions: on a linear axis with as
    many decimals as the view's range needs, so no two ticks read the same ('26 %, 26 %, 25 %', issue 36);
    on a log axis :func:`log_percent`."""
    axis.set_major_formatter(FuncFormatter(log_percent) if log else PercentFormatter(1.0, decimals=None))


def fit_limits(ax, low, high, also=(), pad: float = 0.1, axis: str = "y") -> tuple[float, float]:
    """Set ``ax``'s ``axis`` limits to hold every interval [low, high] and the values ``also`` (a reference
    line), with ``pad`` of the span either side, so no error bar runs into the frame; returns the limits."""
    values = np.concatenate([np.asarray(low, float).ravel(), np.asarray(high, float).ravel(),
                             np.asarray(list(also), float).ravel()])
    values = values[np.isfinite(values)]
    lo, hi = float(values.min()), float(values.max())
    span = hi - lo if hi > lo else max(abs(hi), 1e-9) * 0.1
    limits = (lo - pad * span, hi + pad * span)
    (ax.set_ylim if axis == "y" else ax.set_xlim)(*limits)
    return limits


def _split(box, k, gap=0.3):
    x0, y0, w, h = box
    each = (w - gap * (k - 1)) / k
    return [(x0 + i * (each + gap), y0, each, h) for i in range(k)]


def plot_by_players(fig, box, main, strat, profiles):
    """Three panels: perfect play's RTP zoomed to the publisher's band (which player counts sit in it, the
    intervals readable), the RTP of every profile on the scale they need, and the fold frequency (a single
    panel from 30% to 100% hid the band, issue 36)."""
    b1, b2, b3 = _split(box, 3)
    n = main["players"].to_numpy()
    rtp = main["rtp_initial"].to_numpy()
    low, high = main["rtp_initial_low"].to_numpy(), main["rtp_initial_high"].to_numpy()
    err = np.vstack([rtp - low, high - rtp])
    band = _PUBLISHED["rtp_range"]
    ax = axes_in(fig, b1)
    ax.axhspan(*band, color="0.88", zorder=0, label="published range")
    ax.errorbar(n, rtp, yerr=err, fmt="o-", color="k", capsize=3, lw=1.5, label="perfect play", zorder=5)
    # zoomed to the band and the perfect-play intervals; an N = 1 figure of a test size far off is left out
    near = (high > band[0] - 0.05) & (low < band[1] + 0.05)
    fit_limits(ax, low[near] if near.any() else low, high[near] if near.any() else high, also=band)
    ax.set_xlabel("players")
    ax.set_ylabel("RTP per initial bet")
    percent_ticks(ax.yaxis)
    ax.set_xticks(n)
    ax.set_title("RTP, perfect play, against the band", fontsize=9)
    ax.legend(fontsize=6, loc="best", frameon=False)
    ax.grid(alpha=0.3)
    ax = axes_in(fig, b2)
    ax.axhspan(*band, color="0.88", zorder=0)
    for p in profiles:
        g = strat[strat.strategy == p]
        ax.plot(g["players"], g["rtp_initial"], lw=0.8, alpha=0.8, label=p)
    ax.plot(n, rtp, "o-", color="k", lw=1.5, ms=3, label="perfect play", zorder=5)
    ax.set_xlabel("players")
    percent_ticks(ax.yaxis)
    ax.set_xticks(n)
    ax.set_title("RTP, the weak profiles", fontsize=9)
    ax.legend(fontsize=5, loc="best", frameon=False)
    ax.grid(alpha=0.3)
    ax = axes_in(fig, b3)
    f = main["fold_frequency"].to_numpy()
    ferr = np.vstack([f - main["fold_frequency_low"].to_numpy(), main["fold_frequency_high"].to_numpy() - f])
    ax.errorbar(n, f, yerr=ferr, fmt="o-", color="k", capsize=3, lw=1.5, label="perfect play")
    ax.plot([1, 7], [_PUBLISHED["fold_1"], _PUBLISHED["fold_7"]], "x", color="C3", ms=8, mew=2, label="published")
    ax.set_xlabel("players")
    ax.set_ylabel("fold frequency")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xticks(range(1, 8))
    ax.set_title("Fold frequency", fontsize=9)
    ax.legend(fontsize=6, frameon=False)
    ax.grid(alpha=0.3)


def plot_threshold(fig, box, curve, threshold):
    ax = axes_in(fig, box, bottom=0.75)
    x = np.arange(len(curve))
    ax.plot(x, curve["rtp_per_initial_bet"], "o-", color="k", label="RTP per initial bet")
    ax.plot(x, curve["rtp_per_wagered"], "s--", color="C0", ms=4, label="RTP per total wagered")
    if threshold in list(curve["pattern"]):
        i = list(curve["pattern"]).index(threshold)
        ax.axvline(i, color="C3", ls="--", lw=1, label=f"rule set: {threshold}")
    ax.axhline(1.0, color="0.6", lw=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels(curve["pattern"], rotation=45, ha="right", fontsize=7)
    ax.set_xlabel("kickout threshold (the dealer folds at or above)")
    ax.set_ylabel("RTP")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize=7, frameon=False)
    ax.grid(alpha=0.3)


def plot_distribution(fig, box, solo, distribution):
    b1, b2 = _split(box, 2)
    ax = axes_in(fig, b1)
    rt = solo.return_table()
    g = rt.groupby("net")["probability"].sum()
    g = g[g > 0]
    ax.bar([str(int(v)) if float(v).is_integer() else f"{v:g}" for v in g.index], g.to_numpy(), color="C0")
    ax.set_yscale("log")
    ax.set_xlabel("net result (antes)")
    ax.set_ylabel("probability")
    ax.set_title("1 player, exact", fontsize=9)
    ax.tick_params(axis="x", labelsize=6, rotation=90)
    ax.grid(alpha=0.3, axis="y")
    ax = axes_in(fig, b2)
    n, net = distribution
    if n is None:
        ax.text(0.5, 0.5, "no multi-player count", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    seat = np.round(np.asarray(net)[:, 0], 6)
    values, counts = np.unique(seat, return_counts=True)
    ax.bar(np.arange(len(values)), counts / counts.sum(), color="C1")
    step = max(1, len(values) // 12)
    ax.set_xticks(np.arange(len(values))[::step])
    ax.set_xticklabels([f"{v:g}" for v in values[::step]], rotation=90, fontsize=6)
    ax.set_yscale("log")
    ax.set_xlabel("net result of seat 1 (antes)")
    ax.set_ylabel("frequency")
    ax.set_title(f"{n} players, {len(seat):,} rounds", fontsize=9)
    ax.grid(alpha=0.3, axis="y")


def plot_band(fig, box, main):
    ax = axes_in(fig, box)
    x = np.logspace(2, 8, 61)
    z = z_value(0.95)
    for i, r in enumerate(main.itertuples()):
        h = z * r.sd_net / np.sqrt(x)
        colour = f"C{i % 10}"
        ax.plot(x, np.full_like(x, r.rtp_initial), color=colour, lw=1.2, label=f"N = {r.players}")
        ax.plot(x, r.rtp_initial - h, color=colour, lw=0.8, ls="--")
        ax.plot(x, r.rtp_initial + h, color=colour, lw=0.8, ls="--")
    ax.axhline(1.0, color="0.5", lw=0.8)
    ax.set_xscale("log")
    centre = main["rtp_initial"].to_numpy(dtype=float)
    ax.set_ylim(min(centre.min(), 1.0) - 0.25, max(centre.max(), 1.0) + 0.25)
    ax.set_xlabel("rounds played")
    ax.set_ylabel("RTP per initial bet (95% band)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize=6, ncol=4, frameon=False)
    ax.grid(alpha=0.3)


def plot_strategy(fig, box, grid, names):
    """The 13 x 13 perfect-play chart: colour = share of the dealer hands she keeps that the class plays
    against; every cell labelled with its hand name and that share (percent); grey where not analysed."""
    x0, y0, w, h = box
    side = min(w - 1.6, h - 0.5)
    W, H = fig.get_size_inches()
    ax = fig.add_axes(((x0 + 0.4) / W, (y0 + 0.15) / H, side / W, side / H))
    values = grid.to_numpy(dtype=float)
    masked = np.ma.masked_invalid(values)
    cmap = colormaps["viridis"].with_extremes(bad="0.85")
    finite = values[np.isfinite(values)]
    lo = float(finite.min()) if finite.size else 0.0
    im = ax.imshow(masked, cmap=cmap, vmin=min(lo, 0.6), vmax=1.0)
    for i in range(13):
        for j in range(13):
            v = values[i, j]
            dark = np.isfinite(v) and im.norm(v) < 0.6
            text = names.iloc[i, j] + ("\nn/a" if not np.isfinite(v) else f"\n{100 * v:.0f}%")
            ax.text(j, i, text, ha="center", va="center", fontsize=5.2, color="white" if dark else "black",
                    linespacing=1.1)
    ax.set_xticks(range(13), list(grid.columns), fontsize=7)
    ax.set_yticks(range(13), list(grid.index), fontsize=7)
    ax.tick_params(length=0)
    ax.xaxis.tick_top()
    ax.set_xlabel("suited above the diagonal, offsuit below, pairs on it", fontsize=7)
    cax = fig.add_axes(((x0 + 0.6 + side) / W, (y0 + 0.15) / H, 0.15 / W, side / H))
    bar = fig.colorbar(im, cax=cax)
    bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    bar.set_label("dealer hands (below the kickout) played against", fontsize=7)
    bar.ax.tick_params(labelsize=6)

