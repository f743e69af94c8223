import { AvatarsScreen } from '../../../features/avatars/components/avatars-screen';

export default function AvatarsRoute() {
  return <AvatarsScreen />;
}
