// Conversations per day as bars, the unanswered turns' share marked on each (an SVG: the portal
// bundles no chart library and one bar series does not need one).
import Box from '@mui/material/Box';
import type { InsightDay } from '@parla/shared/schemas/insight';

const HEIGHT = 120;

export function DayChart({ days }: { days: InsightDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.conversations));
  const width = Math.max(days.length * 12, 240);
  const bar = width / Math.max(days.length, 1);
  const total = days.reduce((n, d) => n + d.conversations, 0);
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <svg
        role="img"
        aria-label={`Conversations per day: ${total} in ${days.length} ${days.length === 1 ? 'day' : 'days'}`}
        width="100%"
        viewBox={`0 0 ${width} ${HEIGHT + 16}`}
        preserveAspectRatio="none"
        style={{ minWidth: 240, maxHeight: 180 }}
      >
        {days.map((d, i) => {
          const h = (d.conversations / max) * HEIGHT;
          const missed = d.turns ? (d.unansweredTurns / d.turns) * h : 0;
          return (
            <g key={d.day}>
              <title>{`${d.day}: ${d.conversations} conversations, ${d.turns} turns, ${d.unansweredTurns} unanswered`}</title>
              <rect x={i * bar + bar * 0.15} y={HEIGHT - h} width={bar * 0.7} height={h} fill="#1976d2" />
              <rect x={i * bar + bar * 0.15} y={HEIGHT - missed} width={bar * 0.7} height={missed} fill="#ed6c02" />
            </g>
          );
        })}
        <line x1={0} y1={HEIGHT} x2={width} y2={HEIGHT} stroke="#999" strokeWidth={1} />
        <text x={0} y={HEIGHT + 13} fontSize={10} fill="#666">
          {days[0]?.day}
        </text>
        <text x={width} y={HEIGHT + 13} fontSize={10} fill="#666" textAnchor="end">
          {days.at(-1)?.day}
        </text>
      </svg>
    </Box>
  );
}
