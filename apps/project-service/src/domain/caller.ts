/** Who is calling, as the verified token says. */
export interface Caller {
  principal: string;
  /** Platform admin: listed in ADMIN_PRINCIPALS or a member of ADMIN_GROUP. */
  isAdmin: boolean;
}
