// The main pane of the Account screen (spec 1 §2, §5): a date range (default: one month ago to
// today, never in the future), Search, and conversation time per avatar with a total row. A date
// the pickers refuse (typed in the future, or not a date) is said under its field and Search is
// disabled until it is valid (issue 17).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import type { DateValidationError } from '@mui/x-date-pickers/models';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { useSnackbar } from 'notistack';
import { SCREEN_MESSAGES } from '@parla/shared/errors';
import { BILLING_DEFAULT_WINDOW_MONTHS, TOAST_ERROR_MS } from '@parla/shared/limits';
import { START_AFTER_END } from '@parla/shared/schemas/billing';
import { reportOf, useAccountStats, type BillingRange } from '../api/get-account-stats';

const INVALID_DATES = 'Choose a valid start and end date.';

/** The message under a date field for the pickers' validation error, or null when valid. */
export function dateProblem(label: 'Start date' | 'End date', reason: DateValidationError | null): string | null {
  if (reason === null) return null;
  if (reason === 'disableFuture' || reason === 'maxDate') return `${label} cannot be later than today.`;
  return `Enter a valid ${label.toLowerCase()} (MM/DD/YYYY).`;
}

/** Whole days: from the start of the start day to the end of the end day (the end is exclusive). */
export function rangeOf(start: Dayjs, end: Dayjs): BillingRange {
  return { startDate: start.startOf('day').valueOf(), endDate: end.add(1, 'day').startOf('day').valueOf() };
}

export function defaultDates(today = dayjs()): { start: Dayjs; end: Dayjs } {
  return {
    start: today.subtract(BILLING_DEFAULT_WINDOW_MONTHS, 'month').startOf('day'),
    end: today.startOf('day'),
  };
}

/** On a phone the id column gives its width to the numbers. */
const ID_COLUMN = { display: { xs: 'none', sm: 'table-cell' } } as const;

/** The total row is the range's exact minutes rounded once (decision 500), not the sum of the rows. */
const ROUNDING_NOTE = 'Rows are rounded; the total is the exact total, rounded once.';

const minutes = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function BillingReport() {
  const { enqueueSnackbar } = useSnackbar();
  const [dates, setDates] = useState(defaultDates);
  const [range, setRange] = useState<BillingRange>(() => rangeOf(dates.start, dates.end));
  const stats = useAccountStats(range);
  const today = dayjs();
  const [problems, setProblems] = useState<{ start: string | null; end: string | null }>({ start: null, end: null });
  const invalid = Boolean(problems.start || problems.end);

  const search = () => {
    const { start, end } = dates;
    if (!start?.isValid() || !end?.isValid()) {
      enqueueSnackbar(INVALID_DATES, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
      return;
    }
    if (start.startOf('day').isAfter(end.startOf('day'))) {
      enqueueSnackbar(START_AFTER_END, { variant: 'error', autoHideDuration: TOAST_ERROR_MS });
      return;
    }
    const next = rangeOf(start, end);
    if (next.startDate === range.startDate && next.endDate === range.endDate) void stats.refetch();
    else setRange(next);
  };

  const data = reportOf(stats.data);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="billing-title" sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}>
      <Typography id="billing-title" variant="h2" component="h2">
        Billing Report
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        Conversation time of your avatars, per avatar, for whole days in your time zone.
      </Typography>
      {/* The date pickers' adapter lives here, the one screen with pickers (not in every page's bundle). */}
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mt: 2 }}>
          <DatePicker
            label="Start date"
            value={dates.start}
            onChange={(v) => setDates((d) => ({ ...d, start: v as Dayjs }))}
            maxDate={today}
            disableFuture
            onError={(reason) => setProblems((p) => ({ ...p, start: dateProblem('Start date', reason) }))}
            slotProps={{ textField: { margin: 'none', size: 'small', fullWidth: false, sx: { width: 180 }, helperText: problems.start } }}
          />
          <DatePicker
            label="End date"
            value={dates.end}
            onChange={(v) => setDates((d) => ({ ...d, end: v as Dayjs }))}
            maxDate={today}
            disableFuture
            onError={(reason) => setProblems((p) => ({ ...p, end: dateProblem('End date', reason) }))}
            slotProps={{ textField: { margin: 'none', size: 'small', fullWidth: false, sx: { width: 180 }, helperText: problems.end } }}
          />
          <Button variant="contained" startIcon={<SearchIcon />} onClick={search} disabled={stats.isFetching || invalid}>
            Search
          </Button>
        </Box>
      </LocalizationProvider>
      <Box sx={{ height: 4, mt: 2 }}>{stats.isFetching && <LinearProgress aria-label="Loading billing data" />}</Box>
      {stats.isError && !stats.isFetching && (
        <Alert
          severity="error"
          sx={{ mt: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void stats.refetch()}>
              Retry
            </Button>
          }
        >
          {SCREEN_MESSAGES.billingFailed}
        </Alert>
      )}
      {data && (
        <TableContainer sx={{ mt: 1 }}>
          <Table size="small" aria-label="Billing report">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>Avatar Name</TableCell>
                <TableCell sx={ID_COLUMN}>Avatar ID</TableCell>
                <TableCell align="right">Total Duration (minutes)</TableCell>
                <TableCell align="right">Total Call Count</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5} sx={{ color: 'text.secondary', py: 3, textAlign: 'center' }}>
                    No conversations in this period.
                  </TableCell>
                </TableRow>
              )}
              {data.rows.map((row, i) => (
                <TableRow key={row.avatarId}>
                  <TableCell>{i + 1}</TableCell>
                  <TableCell>{row.avatarName}</TableCell>
                  <TableCell
                    sx={{
                      ...ID_COLUMN,
                      fontFamily: 'ui-monospace, monospace',
                      fontSize: 12,
                      wordBreak: 'break-all',
                    }}
                  >
                    {row.avatarId}
                  </TableCell>
                  <TableCell align="right">{minutes(row.totalCallDuration)}</TableCell>
                  <TableCell align="right">{row.totalCallCount}</TableCell>
                </TableRow>
              ))}
              <TableRow sx={{ '& td': { fontWeight: 700, borderBottom: 'none' }, bgcolor: 'action.hover' }}>
                <TableCell />
                <TableCell>{data.total.avatarName}</TableCell>
                <TableCell sx={ID_COLUMN} />
                <TableCell align="right">{minutes(data.total.totalCallDuration)}</TableCell>
                <TableCell align="right">{data.total.totalCallCount}</TableCell>
              </TableRow>
            </TableBody>
          </Table>
          {data.rows.length > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {ROUNDING_NOTE}
            </Typography>
          )}
          {stats.hasNextPage && (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mt: 1.5 }}>
              <Typography variant="body2" color="text.secondary">
                Showing {data.rows.length.toLocaleString()} avatars; the total covers every avatar in the range.
              </Typography>
              <Button size="small" variant="outlined" onClick={() => void stats.fetchNextPage()} disabled={stats.isFetchingNextPage}>
                {stats.isFetchingNextPage ? 'Loading…' : 'Load more rows'}
              </Button>
            </Box>
          )}
        </TableContainer>
      )}
    </Paper>
  );
}
