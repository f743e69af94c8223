// /vpsstatus (administrators): the connected pipeline nodes.
import { VpsScreen } from '../../../features/vps/components/vps-screen';

export default function VpsStatusRoute() {
  return <VpsScreen />;
}
