// Signed approval receipts (docs/approvals.md, "Signed receipts").
export { argsDigest, receiptClaims } from './receipt-claims';
export type { ReceiptClaims } from './receipt-claims';
export { checkReceiptKeys, newReceiptKey, receiptKeys } from './receipt-keys';
export { signReceipt } from './sign-receipt';
export { verifyReceipt } from './verify-receipt';
