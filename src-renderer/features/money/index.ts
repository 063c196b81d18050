// The money feature's front door: the header's balance, the balance after an estimate (compose), and the balance.
export { BalanceAfter, BalanceBadge, useBalance } from './balance.tsx';
