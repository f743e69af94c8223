// Customers (administrators): the desk where plan change requests are decided and accounts
// suspended, beyond the spec's "the administrator will email you to confirm".
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { CustomersTable } from '../../../features/customers/components/customers-table';

export default function CustomersRoute() {
  return (
    <Container maxWidth="xl" sx={{ py: { xs: 2, sm: 4 } }}>
      <Typography variant="h1">Customers</Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        Approve or decline requested plan changes, suspend or reactivate accounts, and sign in as a customer to help them.
      </Typography>
      <CustomersTable />
    </Container>
  );
}
