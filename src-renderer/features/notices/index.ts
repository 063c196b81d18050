// The start-up notices' front door: the banner App.tsx mounts.
export { StartupNotices } from './StartupNotices.tsx';
