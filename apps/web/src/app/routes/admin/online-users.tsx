// /onlineusers (administrators): every conversation running now.
import { OnlineUsersScreen } from '../../../features/online-users/components/online-users-screen';

export default function OnlineUsersRoute() {
  return <OnlineUsersScreen scope="all" />;
}
