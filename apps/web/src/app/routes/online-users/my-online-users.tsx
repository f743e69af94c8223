// /myonlineusers (customers): the people talking to this account's avatars now.
import { OnlineUsersScreen } from '../../../features/online-users/components/online-users-screen';

export default function MyOnlineUsersRoute() {
  return <OnlineUsersScreen scope="mine" />;
}
