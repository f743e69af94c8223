// Top bar: the role's menu on desktop; below 760 px a right-side drawer with the same items
// plus Home, and Sign In when signed out (spec 1 §2).
import { useState } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import MenuIcon from '@mui/icons-material/Menu';
import { Link as RouterLink, NavLink } from 'react-router';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-session';
import { usePortalSettings } from '../../lib/portal-settings';
import { MOBILE_QUERY } from '../theme';
import { navItems, type NavItem } from './nav-items';

function Brand() {
  const { productName } = usePortalSettings();
  return (
    <Box
      component={RouterLink}
      to={paths.home}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
    >
      <Box component="img" src="/react/favicon.svg" alt="" sx={{ width: 30, height: 30 }} />
      <Typography variant="h6" component="span" sx={{ fontWeight: 700, letterSpacing: 0.2 }}>
        {productName}
      </Typography>
    </Box>
  );
}

function DesktopItem({ item }: { item: NavItem }) {
  if (item.external) {
    return (
      <Button color="inherit" href={item.to} target="_blank" rel="noopener noreferrer">
        {item.label}
      </Button>
    );
  }
  return (
    <Button color="inherit" component={NavLink} to={item.to} sx={{ '&.active': { bgcolor: 'rgba(255,255,255,0.16)' } }}>
      {item.label}
    </Button>
  );
}

export function Navbar() {
  const session = useAuth();
  const { docsUrl, allowRegistration } = usePortalSettings();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [open, setOpen] = useState(false);
  const items = navItems(session, docsUrl);
  const signedOutItems: NavItem[] = session
    ? []
    : [{ label: 'Sign In', to: paths.login }, ...(allowRegistration ? [{ label: 'Register', to: paths.register }] : [])];

  return (
    <AppBar position="sticky" elevation={0}>
      <Toolbar sx={{ gap: 1 }}>
        <Brand />
        {session?.adminProxy && <Chip size="small" color="warning" label="Admin proxy" sx={{ ml: 1 }} />}
        <Box sx={{ flex: 1 }} />
        {mobile ? (
          <IconButton color="inherit" edge="end" aria-label="Open menu" onClick={() => setOpen(true)}>
            <MenuIcon />
          </IconButton>
        ) : (
          <Box component="nav" aria-label="Main" sx={{ display: 'flex', gap: 0.5 }}>
            {[...items, ...signedOutItems].map((item) => (
              <DesktopItem key={item.label} item={item} />
            ))}
          </Box>
        )}
      </Toolbar>
      <Drawer anchor="right" open={mobile && open} onClose={() => setOpen(false)}>
        <Box component="nav" aria-label="Main" sx={{ width: 260 }} role="presentation" onClick={() => setOpen(false)}>
          <List>
            {[{ label: 'Home', to: paths.home }, ...items, ...(session ? [] : [{ label: 'Sign In', to: paths.login }])].map((item) =>
              item.external ? (
                <ListItemButton key={item.label} component="a" href={item.to} target="_blank" rel="noopener noreferrer">
                  <ListItemText primary={item.label} />
                </ListItemButton>
              ) : (
                <ListItemButton key={item.label} component={NavLink} to={item.to} end={item.to === paths.home}>
                  <ListItemText primary={item.label} />
                </ListItemButton>
              ),
            )}
          </List>
        </Box>
      </Drawer>
    </AppBar>
  );
}
